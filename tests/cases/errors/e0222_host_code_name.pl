# E0222: a pl function uses `SCALE`, which host code computes at run time (the top-level
# assignment is not a constant expression, so it is skipped with note N0001).
import pypto.language as pl

SCALE = float(input())


@pl.jit
def entry(x: pl.Tensor, out: pl.Out[pl.Tensor]):
    with pl.at(level=pl.Level.CORE_GROUP):
        t = pl.load(x, [0, 0], [64, 64])
        pl.store(pl.mul(t, SCALE), [0, 0], out)
    return out
