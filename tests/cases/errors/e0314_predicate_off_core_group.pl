# E0314: `predicate=` only goes with `level=pl.Level.CORE_GROUP`.
import pypto.language as pl


@pl.jit
def entry(x: pl.Tensor, out: pl.Out[pl.Tensor], n: pl.INDEX):
    with pl.at(level=pl.Level.HOST, predicate=(n > 0)):
        pass
    return out
