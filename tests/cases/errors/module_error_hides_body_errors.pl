# A mistake in a module constant (E0218) and an independent mistake in a function
# body (E0205). Both should be reported: the unknown operation does not depend on
# the constant.
import pypto.language as pl

ROWS = 64
PER_BLOCK = ROWS // 0


@pl.jit
def entry(x: pl.Tensor):
    y = pl.nonexistent_op(x)
    return x
