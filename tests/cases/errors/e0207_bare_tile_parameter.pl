# E0207: a bare `pl.Tile` parameter is incomplete (bare `pl.Tensor`, whose shape is read at
# run time, is accepted: see the first parameter).
import pypto.language as pl


@pl.jit.incore
def kernel(x: pl.Tensor, t: pl.Tile, out: pl.Out[pl.Tensor]):
    pl.store(t, [0, 0], out)
    return out


@pl.jit
def entry(x: pl.Tensor, out: pl.Out[pl.Tensor]):
    return out
