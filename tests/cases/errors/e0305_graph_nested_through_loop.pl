# E0305: a graph region nested in another one through a loop and an `if`: the check is
# on textual nesting at any depth, not only on the direct parent.
import pypto.language as pl

ROWS = 128
COLS = 128


@pl.jit
def entry(w: pl.Tensor, acc: pl.InOut[pl.Tensor], n: pl.INDEX):
    with pl.graph("model"):
        for i in pl.range(4):
            if n > i:
                with pl.graph("layer"):
                    with pl.at(level=pl.Level.CORE_GROUP):
                        band = pl.load(w, [0, 0], [ROWS, COLS])
                        pl.store(band, [0, 0], acc)
    return acc
