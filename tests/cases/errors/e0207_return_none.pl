# E0207: `-> None` is not a pl return annotation (leave the annotation out instead).
import pypto.language as pl


@pl.jit
def entry(x: pl.Tensor, out: pl.Out[pl.Tensor]) -> None:
    with pl.at(level=pl.Level.CORE_GROUP):
        t = pl.load(x, [0, 0], [64, 64])
        pl.store(t, [0, 0], out)
