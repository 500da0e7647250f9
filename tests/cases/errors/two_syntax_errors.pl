import pypto.language as pl


@pl.jit
def f(x: pl.Tensor):
    y = pl.add(x, x
    return y


@pl.jit
def g(x: pl.Tensor):
    z = x +* 2
    return z
