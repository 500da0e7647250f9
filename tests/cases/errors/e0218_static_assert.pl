# E0218: a `pl.static_assert` whose condition is false at compile time; its message is
# the diagnostic's.
import pypto.language as pl

ROWS = 96
TILE = 64


@pl.jit
def entry(x: pl.Tensor):
    pl.static_assert(ROWS % TILE == 0, "ROWS must be a multiple of TILE")
    return x
