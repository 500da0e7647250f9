# One mistake on each of several lines, of different kinds (lexical, layout, syntax,
# unsupported form, invalid target). Each is reported once, at its own line and column,
# and nothing else is reported.
import pypto.language as pl

ROWS = 64


@pl.jit
def first(x: pl.Tensor, n: pl.INDEX):
    a = n $ 1
    b = pl.add(x x)
    n += 1
    return x


@pl.jit
def second(x: pl.Tensor, out: pl.Out[pl.Tensor]):
    with pl.at(level=pl.Level.CORE_GROUP):
        t = pl.load(x, [0, 0], [ROWS, ROWS)
        pl.store(t, [0, 0], out)
    pl.add(x, x) = out
        c = 1
    return out


@pl.jit
def third(x: pl.Tensor):
    for i in pl.range(4):
    y = lambda: x
    return y
