# E0311: a name hint that is not a string literal (a constant, an f-string), and one that
# is a keyword.
import pypto.language as pl

STAGE = "stage"


@pl.jit
def entry(x: pl.Tensor, out: pl.Out[pl.Tensor]):
    with pl.at(level=pl.Level.CORE_GROUP, name_hint=STAGE):
        t = pl.load(x, [0, 0], [64, 64])
        pl.store(t, [0, 0], out)
    with pl.cluster(name_hint=f"{STAGE}_2"):
        pass
    with pl.spmd(4, name_hint="def"):
        blk = pl.tile.get_block_idx()
    return out
