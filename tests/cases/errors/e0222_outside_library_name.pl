# E0222: a pl function uses a name imported from an outside library
# (`from torch import float32`, skipped with note N0003).
import pypto.language as pl
from torch import float32


@pl.jit
def entry(x: pl.Tensor, out: pl.Out[pl.Tensor]):
    with pl.at(level=pl.Level.CORE_GROUP):
        t = pl.load(x, [0, 0], [64, 64])
        u = pl.cast(t, float32)
        pl.store(u, [0, 0], out)
    return out
