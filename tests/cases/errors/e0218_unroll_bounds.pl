# E0218: the bounds of `pl.unroll` must be compile-time constants; `n` is a parameter.
import pypto.language as pl


@pl.jit
def entry(x: pl.Tensor, n: pl.INDEX):
    for i in pl.unroll(n):
        pass
    return x
