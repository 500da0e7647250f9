# E0212: `@pl.jit.graph(level=...)` — @pl.jit.graph accepts no level= argument.
import pypto.language as pl

ROWS = 128
COLS = 128


@pl.jit.graph(level=pl.Level.CHIP)
def layer(w: pl.Tensor, acc: pl.InOut[pl.Tensor]):
    with pl.at(level=pl.Level.CORE_GROUP):
        band = pl.load(w, [0, 0], [ROWS, COLS])
        pl.store(band, [0, 0], acc)
    return acc


@pl.jit
def entry(w: pl.Tensor, acc: pl.InOut[pl.Tensor]):
    acc = layer(w, acc)
    return acc
