# E0313: `pl.at(...)` called as a value rather than used in a `with` statement.
import pypto.language as pl


@pl.jit
def entry(x: pl.Tensor):
    s = pl.at(level=pl.Level.CORE_GROUP)
    return x
