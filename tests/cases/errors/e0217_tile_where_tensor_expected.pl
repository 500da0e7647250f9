# E0217: `pl.load` of a tile: its first argument must be a tensor.
import pypto.language as pl


@pl.jit
def entry(x: pl.Tensor, out: pl.Out[pl.Tensor]):
    with pl.at(level=pl.Level.CORE_GROUP):
        t = pl.load(x, [0, 0], [64, 64])
        u = pl.load(t, [0, 0], [64, 64])
        pl.store(u, [0, 0], out)
    return out
