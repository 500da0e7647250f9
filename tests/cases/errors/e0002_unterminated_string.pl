# E0002: a string not closed on its line, with either quote. The lines after it are
# still read, and nothing else is reported.
import pypto.language as pl


@pl.jit
def f(x: pl.Tensor):
    name = "layer
    other = 'x
    y = pl.add(x, x)
    return y
