# E0204: an op argument given both by position and by keyword.
import pypto.language as pl


@pl.jit
def entry(x: pl.Tensor, out: pl.Out[pl.Tensor]):
    with pl.at(level=pl.Level.CORE_GROUP):
        t = pl.load(x, [0, 0], [64, 64], shapes=[64, 64])
        pl.store(t, [0, 0], out)
    return out
