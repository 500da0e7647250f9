# Two `pl.graph` regions that ask for the same name "refine". OutlineGraphScopes must
# turn them into two distinct Graph functions (the second gets a suffixed name), never
# merge them: they record different task topologies. The first region sits in a loop
# (outlined once, called every round); the second runs once after the loop.
# Shows: `with pl.graph("name"):` in a loop and at function level, nested `pl.at`.
import pypto.language as pl

ROWS = 64
COLS = 64
ROUNDS = 3


@pl.jit
def refine_twice(step: pl.Tensor, acc: pl.InOut[pl.Tensor], out: pl.InOut[pl.Tensor]):
    for r in pl.range(ROUNDS):
        with pl.graph("refine"):
            with pl.at(level=pl.Level.CORE_GROUP):
                cur = pl.load(acc, [0, 0], [ROWS, COLS])
                delta = pl.load(step, [0, 0], [ROWS, COLS])
                pl.store(pl.add(cur, delta), [0, 0], acc)
    with pl.graph("refine"):
        with pl.at(level=pl.Level.CORE_GROUP):
            final = pl.load(acc, [0, 0], [ROWS, COLS])
            pl.store(pl.mul(final, final), [0, 0], out)
    return acc, out
