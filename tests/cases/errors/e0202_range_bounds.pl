# E0202: `pl.range()` takes one to three bounds; here it gets four.
import pypto.language as pl


@pl.jit
def entry(x: pl.Tensor):
    for i in pl.range(0, 8, 2, 1):
        pass
    return x
