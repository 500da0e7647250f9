# E0001: characters that start no token. A run of them is reported once.
import pypto.language as pl


@pl.jit
def f(x: pl.Tensor, n: pl.INDEX):
    a = n $ 2
    b = n ?? 3
    c = n + 1
    return x
