# E0202: `pl.load` without its shapes: a required argument is missing.
import pypto.language as pl


@pl.jit
def entry(x: pl.Tensor, out: pl.Out[pl.Tensor]):
    with pl.at(level=pl.Level.CORE_GROUP):
        t = pl.load(x, [0, 0])
        pl.store(t, [0, 0], out)
    return out
