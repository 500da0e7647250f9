# E0219: `pl.range(...)` used as a value rather than as the iterator of a `for` loop.
import pypto.language as pl


@pl.jit
def entry(x: pl.Tensor):
    r = pl.range(8)
    return x
