# E0309: `pl.at()` without a level.
import pypto.language as pl


@pl.jit
def entry(x: pl.Tensor, out: pl.Out[pl.Tensor]):
    with pl.at(name_hint="stage"):
        t = pl.load(x, [0, 0], [64, 64])
        pl.store(t, [0, 0], out)
    return out
