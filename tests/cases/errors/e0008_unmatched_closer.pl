# E0008: closing brackets with nothing to close.
import pypto.language as pl


@pl.jit
def f(x: pl.Tensor):
    y = pl.add(x, x))
    z = y]
    return z
