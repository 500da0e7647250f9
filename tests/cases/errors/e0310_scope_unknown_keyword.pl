# E0310: a scope given a keyword it does not take (`pl.at(..., priority=1)`,
# `pl.cluster(level=...)`, `pl.manual_scope(mode=...)`).
import pypto.language as pl


@pl.jit
def entry(x: pl.Tensor, out: pl.Out[pl.Tensor]):
    with pl.at(level=pl.Level.CORE_GROUP, priority=1):
        t = pl.load(x, [0, 0], [64, 64])
        pl.store(t, [0, 0], out)
    with pl.cluster(level=pl.Level.CORE_GROUP):
        pass
    with pl.manual_scope(mode=pl.ScopeMode.MANUAL):
        pass
    return out
