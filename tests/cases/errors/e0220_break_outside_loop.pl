# E0220: `break` outside any loop.
import pypto.language as pl


@pl.jit
def entry(x: pl.Tensor, n: pl.INDEX):
    if n > 0:
        break
    return x
