# A continuation line at the column of its statement, inside brackets, is valid.
import pypto.language as pl


@pl.jit
def f(x: pl.Tensor):
    y = pl.load(x, [0, 0], [64, 64],
    target_memory=pl.MemorySpace.Vec)
    return y
