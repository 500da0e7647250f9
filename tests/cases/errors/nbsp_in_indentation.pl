# A no-break space in the indentation is reported and read as a space.
import pypto.language as pl


@pl.jit
def f(x: pl.Tensor):
    a = 1
    return x
