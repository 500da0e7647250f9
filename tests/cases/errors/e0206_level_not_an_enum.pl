# E0206: the level of `pl.at` is a number, not `pl.Level.<name>`.
import pypto.language as pl


@pl.jit
def entry(x: pl.Tensor, out: pl.Out[pl.Tensor]):
    with pl.at(level=2):
        t = pl.load(x, [0, 0], [64, 64])
        pl.store(t, [0, 0], out)
    return out
