# E0315: a hand-placed `with pl.scope():` in a function without `auto_scope=False`.
import pypto.language as pl


@pl.jit
def entry(x: pl.Tensor, out: pl.Out[pl.Tensor]):
    with pl.scope():
        with pl.at(level=pl.Level.CORE_GROUP):
            t = pl.load(x, [0, 0], [64, 64])
            pl.store(t, [0, 0], out)
    return out
