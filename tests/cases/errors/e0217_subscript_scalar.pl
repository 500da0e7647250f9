# E0217: subscripting a scalar.
import pypto.language as pl


@pl.jit
def entry(x: pl.Tensor, n: pl.INDEX):
    m = n[0]
    return x
