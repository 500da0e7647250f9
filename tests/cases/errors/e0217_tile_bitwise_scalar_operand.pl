# `pl.and_(tile, 3)` is `pl.tile.ands` (the unified name dispatches on the scalar, as
# PyPTO's wrapper does), but `pl.tile.and_` itself takes two tiles, as PyPTO's `tile.and`.
import pypto.language as pl


@pl.jit.incore
def k(i: pl.Tensor[[4, 16], pl.INT32], out: pl.Out[pl.Tensor[[4, 16], pl.INT32]]):
    a = pl.load(i, [0, 0], [4, 16])
    b = pl.and_(a, 3)
    out = pl.store(pl.tile.and_(b, 3), [0, 0], out)
    return out
