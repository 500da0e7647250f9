# E0206: `pl.Level.CORE_GROUPS` is not a member of pl.Level.
import pypto.language as pl


@pl.jit
def entry(x: pl.Tensor, out: pl.Out[pl.Tensor]):
    with pl.at(level=pl.Level.CORE_GROUPS):
        t = pl.load(x, [0, 0], [64, 64])
        pl.store(t, [0, 0], out)
    return out
