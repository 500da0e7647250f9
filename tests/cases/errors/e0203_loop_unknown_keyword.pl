# E0203: `pl.range(..., order=2)` — not a keyword of pl.range.
import pypto.language as pl


@pl.jit
def entry(x: pl.Tensor):
    for i in pl.range(8, order=2):
        pass
    return x
