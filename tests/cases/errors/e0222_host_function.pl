# E0222: a pl function calls a plain Python function defined by host code.
import pypto.language as pl


def make_scale():
    return 0.5


@pl.jit
def entry(x: pl.Tensor, out: pl.Out[pl.Tensor]):
    with pl.at(level=pl.Level.CORE_GROUP):
        t = pl.load(x, [0, 0], [64, 64])
        pl.store(pl.mul(t, make_scale()), [0, 0], out)
    return out
