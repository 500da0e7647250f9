# E0215: a name imported from a module that does not exist, then used. Only the import is
# reported, not the use (today because an import error stops lowering before the bodies).
import pypto.language as pl
from .missing import HIDDEN


@pl.jit
def entry(x: pl.Tensor, out: pl.Out[pl.Tensor]):
    with pl.at(level=pl.Level.CORE_GROUP):
        t = pl.load(x, [0, 0], [HIDDEN, HIDDEN])
        pl.store(t, [0, 0], out)
    return out
