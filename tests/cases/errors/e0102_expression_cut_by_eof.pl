import pypto.language as pl


@pl.jit
def f(x: pl.Tensor):
    return x +