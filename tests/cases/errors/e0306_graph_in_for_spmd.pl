# E0306: a graph region inside `for i in pl.spmd(4):`. The loop form opens both an SPMD
# region and a core-group region around its body, and the core-group region is checked
# first, so the message names `pl.at(level=...)` (as PyPTO's parser does).
import pypto.language as pl

ROWS = 128
COLS = 128


@pl.jit
def entry(x: pl.Tensor, out: pl.Out[pl.Tensor]):
    for i in pl.spmd(4):
        with pl.graph("layer"):
            t = pl.load(x, [i * ROWS, 0], [ROWS, COLS])
            out = pl.store(t, [i * ROWS, 0], out)
    return out
