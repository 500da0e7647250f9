# E0219: `pl.range(0, 8, 0)` — a zero step.
import pypto.language as pl


@pl.jit
def entry(x: pl.Tensor):
    for i in pl.range(0, 8, 0):
        pass
    return x
