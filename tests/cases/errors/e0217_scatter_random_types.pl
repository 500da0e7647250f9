# E0217: PyPTO's checks of the scatter, random and reinterpret rows added for issue 11
# (ops.md §2): scatter element and index dtypes (an index as wide as an element), the
# destination columns a mask pattern needs, `tensor.scatter` on the last axis only,
# `scatter_update` on dim=-2 only with src of the input's dtype, `random` of INT32/UINT32
# in 7 or 10 rounds, and `reinterpret_view` to a whole number of elements.
import pypto.language as pl


@pl.jit
def entry(
    x: pl.Tensor[[16, 16], pl.FP32],
    i: pl.Tensor[[16, 16], pl.INT16],
    h: pl.Tensor[[16, 16], pl.FP16],
    j: pl.Tensor[[16, 16], pl.INT32],
    out: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
):
    with pl.at(level=pl.Level.CORE_GROUP):
        t = pl.load(x, [0, 0], [16, 16])
        k = pl.load(i, [0, 0], [16, 16])
        a = pl.tile.scatter(t, t, k)
        w = pl.tile.full([16, 16], dtype=pl.FP32, value=0.0)
        b = pl.tile.scatter_mask(w, t, pl.tile.MaskPattern.P0101)
        c = pl.scatter(x, dim=0, index=j, src=x)
        c2 = pl.scatter(x, dim=-1, index=i, src=x)
        d = pl.scatter_update(t, -1, k, t)
        e = pl.tile.scatter_update(t, k, pl.load(h, [0, 0], [16, 16]), dim=-2)
        f = pl.tile.random(1, 2, 3, 4, 5, 6, [16, 16], dtype=pl.FP32)
        g = pl.tile.random(1, 2, 3, 4, 5, 6, [16, 16], rounds=8)
        r = pl.reinterpret_view(pl.load(x, [0, 0], [16, 3]), pl.INT64)
        u = pl.tile.scatter_mask(w, t, 9)
        pl.store(t, [0, 0], out)
    return out
