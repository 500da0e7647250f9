# E0211: a call of a variable, which is not a function.
import pypto.language as pl


@pl.jit
def entry(x: pl.Tensor, n: pl.INDEX):
    m = n(2)
    return x
