# A form feed at the start of a line resets the indentation count, as in Python;
# one on a line of its own is a blank line.
import pypto.language as pl


@pl.jit
def ff(x: pl.Tensor):
    a = 1
    b = 2
    return x

X = 1
