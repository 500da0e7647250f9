# E0311: `pl.at(..., name_hint="has space")` — a name hint must be an identifier
# (reference E15).
import pypto.language as pl


@pl.jit
def entry(x: pl.Tensor, out: pl.Out[pl.Tensor]):
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="has space"):
        t = pl.load(x, [0, 0], [64, 64])
        pl.store(t, [0, 0], out)
    return out
