# E0201: a name used in a function before the statement that assigns it.
import pypto.language as pl


@pl.jit
def entry(x: pl.Tensor, n: pl.INDEX):
    m = k + 1
    k = n * 2
    return x
