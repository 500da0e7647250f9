# E0002: a triple-quoted string still open at the end of the file.
import pypto.language as pl


@pl.jit
def f(x: pl.Tensor):
    """Adds x to itself.
    y = pl.add(x, x)
    return y
