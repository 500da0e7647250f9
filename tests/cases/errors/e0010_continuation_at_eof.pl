import pypto.language as pl


@pl.jit
def f(x: pl.Tensor):
    a = 1 + \