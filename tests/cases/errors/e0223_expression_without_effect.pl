# E0223: an expression statement whose value is thrown away.
import pypto.language as pl


@pl.jit
def entry(x: pl.Tensor, n: pl.INDEX):
    n + 1
    return x
