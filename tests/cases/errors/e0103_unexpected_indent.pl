# E0103: lines indented deeper although the line before opens no block. The deeper lines
# are read as part of the block, so nothing else is reported.
import pypto.language as pl

X = 1
    Y = 2


@pl.jit
def f(x: pl.Tensor):
    a = pl.add(x, x)
        b = pl.mul(a, a)
        c = pl.add(b, a)
    return c
