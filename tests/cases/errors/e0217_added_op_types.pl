# E0217: the type rules of the ops added for issue 11 (ops.md §2): `sin`/`cos` take FP32
# only, a column reduction needs two axes, a part op operands whose shapes broadcast, the scratch
# tile of `row_argmax` the input's dtype, and `pl.tile.sin` a tile.
import pypto.language as pl


@pl.jit
def entry(x: pl.Tensor[[16, 16], pl.FP16], y: pl.Tensor[[16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP16]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        t = pl.load(x, [0, 0], [16, 16])
        s = pl.sin(t)
        v = pl.load(y, [0], [16])
        m = pl.col_min(v)
        w = pl.load(x, [0, 0], [8, 16])
        p = pl.part_add(t, w)
        tmp = pl.create_tile([16, 16], dtype=pl.FP32)
        a = pl.row_argmax(t, tmp)
        c = pl.tile.sin(x)
        pl.store(t, [0, 0], out)
    return out
