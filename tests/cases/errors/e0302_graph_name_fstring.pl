# E0302: the region name is an f-string, which is not a plain string literal.
import pypto.language as pl

ROWS = 128
COLS = 128


@pl.jit
def entry(w: pl.Tensor, acc: pl.InOut[pl.Tensor]):
    for i in pl.range(4):
        with pl.graph(f"layer_{i}"):
            with pl.at(level=pl.Level.CORE_GROUP):
                band = pl.load(w, [0, 0], [ROWS, COLS])
                pl.store(band, [0, 0], acc)
    return acc
