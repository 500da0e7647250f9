# E0215 and E0216: relative imports that fail. `.missing` names no sibling module;
# `DEPTH` is not defined by `config`, and `SCALE` is defined there by host code only;
# `.cycle_a` imports `.cycle_b`, which imports `.cycle_a` again (reported on the import
# that closes the cycle, in cycle_b.pl).
import pypto.language as pl
from .missing import X
from .config import ROWS, COLS, DEPTH, SCALE
from .cycle_a import double


@pl.jit
def entry(x: pl.Tensor, out: pl.Out[pl.Tensor]):
    with pl.at(level=pl.Level.CORE_GROUP):
        t = pl.load(x, [0, 0], [ROWS, COLS])
        pl.store(t, [0, 0], out)
    return out
