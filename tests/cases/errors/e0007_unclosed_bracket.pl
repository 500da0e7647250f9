# E0007: a bracket never closed. It is closed again at the next statement of its block,
# so the following functions are read normally.
import pypto.language as pl


@pl.jit
def f(x: pl.Tensor):
    y = pl.add(x, [x, x
    return y


@pl.jit
def g(x: pl.Tensor):
    return pl.mul(x, x)
