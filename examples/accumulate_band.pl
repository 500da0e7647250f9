# The seed program of docs/seed: a `pl.graph` region inside a `@pl.jit` loop.
# OutlineGraphScopes lifts the region into a Graph function named `accumulate_band`, which
# the runtime records on the first layer and replays on the others.
import pypto.language as pl

ROWS = 128
COLS = 128
LAYERS = 4


@pl.jit
def entry(w: pl.Tensor, acc: pl.InOut[pl.Tensor]):
    for i in pl.range(LAYERS):
        with pl.graph("accumulate_band"):
            base = i * ROWS
            with pl.at(level=pl.Level.CORE_GROUP):
                band = pl.load(w, [base, 0], [ROWS, COLS])
                cur = pl.load(acc, [0, 0], [ROWS, COLS])
                pl.store(pl.add(cur, band), [0, 0], acc)
    return acc
