# E0204: `pl.at` given its level twice (by position and by keyword), and `pl.spmd` given
# `name_hint=` twice.
import pypto.language as pl


@pl.jit
def entry(x: pl.Tensor, out: pl.Out[pl.Tensor]):
    with pl.at(pl.Level.CORE_GROUP, level=pl.Level.CORE_GROUP):
        t = pl.load(x, [0, 0], [64, 64])
        pl.store(t, [0, 0], out)
    with pl.spmd(4, name_hint="a", name_hint="b"):
        blk = pl.tile.get_block_idx()
    return out
