# E0217: the type rules of `pl.tri` (a 2-D shape, PyPTO's dtypes), `fillpad_expand` (no
# extent smaller than the operand's), `pl.expand_clone` (broadcast only from extents of
# 1) and `pl.tile.extract` (a 2-D window) (issue 11, ops.md §2).
import pypto.language as pl


@pl.jit
def entry(x: pl.Tensor[[8, 8], pl.FP32], y: pl.Tensor[[2, 8], pl.FP32], out: pl.Out[pl.Tensor[[8, 8], pl.FP32]]):
    c = pl.expand_clone(y, x)
    with pl.at(level=pl.Level.CORE_GROUP):
        a = pl.tri(0, [8, 8, 8])
        b = pl.tri(0, [8, 8], dtype=pl.INT64)
        t = pl.load(x, [0, 0], [8, 8])
        g = pl.tile.fillpad_expand(t, [4, 8])
        w = pl.tile.extract(t, 0, 0, [8])
        pl.store(t, [0, 0], out)
    return out
