# E0218: a module constant computed by a builtin call that cannot be evaluated at compile
# time (`max` of a number and a string).
import pypto.language as pl

ROWS = 64
COLS = max(ROWS, "wide")


@pl.jit
def entry(x: pl.Tensor):
    return x
