# E0315: a manual scope nested inside another manual scope.
import pypto.language as pl


@pl.jit
def entry(x: pl.Tensor, out: pl.Out[pl.Tensor]):
    with pl.manual_scope():
        with pl.manual_scope():
            with pl.at(level=pl.Level.CORE_GROUP):
                t = pl.load(x, [0, 0], [64, 64])
                pl.store(t, [0, 0], out)
    return out
