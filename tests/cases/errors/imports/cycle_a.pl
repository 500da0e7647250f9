# Part of an import cycle (E0216): imports cycle_b, which imports this module again.
# Lowered alone, it reports the cycle at cycle_b's import.
import pypto.language as pl
from .cycle_b import WIDTH


@pl.jit.inline
def double(x: pl.Tensor, out: pl.Out[pl.Tensor]):
    t = pl.load(x, [0, 0], [WIDTH, WIDTH])
    out = pl.store(pl.add(t, t), [0, 0], out)
    return out
