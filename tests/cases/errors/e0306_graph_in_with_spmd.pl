# E0306: a graph region inside `with pl.spmd(4):`. The message names `pl.spmd(...)`.
import pypto.language as pl

ROWS = 128
COLS = 128


@pl.jit
def entry(x: pl.Tensor, out: pl.Out[pl.Tensor]):
    with pl.spmd(4):
        with pl.graph("layer"):
            blk = pl.tile.get_block_idx()
            t = pl.load(x, [blk * ROWS, 0], [ROWS, COLS])
            out = pl.store(t, [blk * ROWS, 0], out)
    return out
