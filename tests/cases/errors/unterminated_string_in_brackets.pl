# An unterminated string swallows the brackets after it: only the string is reported.
import pypto.language as pl


@pl.jit
def f(x: pl.Tensor):
    with pl.graph("layer):
        y = pl.add(x, x)
    return y
