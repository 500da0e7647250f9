# E0201: a module constant refers to a name that is defined nowhere.
import pypto.language as pl

ROWS = 64
COLS = ROWS * WIDTH


@pl.jit
def entry(x: pl.Tensor, out: pl.Out[pl.Tensor]):
    with pl.at(level=pl.Level.CORE_GROUP):
        t = pl.load(x, [0, 0], [ROWS, COLS])
        pl.store(t, [0, 0], out)
    return out
