# E0312: the `as` target of `pl.at` must be a plain name, not a tuple.
import pypto.language as pl


@pl.jit
def entry(x: pl.Tensor, out: pl.Out[pl.Tensor]):
    with pl.at(level=pl.Level.CORE_GROUP) as (a, b):
        t = pl.load(x, [0, 0], [64, 64])
        pl.store(t, [0, 0], out)
    return out
