# E0302: the region name is a module constant holding a string. The name must be written
# in the source as a string literal, even when a constant holds exactly that string.
import pypto.language as pl

ROWS = 128
COLS = 128
NAME = "layer"


@pl.jit
def entry(w: pl.Tensor, acc: pl.InOut[pl.Tensor]):
    with pl.graph(NAME):
        with pl.at(level=pl.Level.CORE_GROUP):
            band = pl.load(w, [0, 0], [ROWS, COLS])
            pl.store(band, [0, 0], acc)
    return acc
