# E0217: a loop bound that is a float, not an integer scalar.
import pypto.language as pl


@pl.jit
def entry(x: pl.Tensor):
    for i in pl.range(2.5):
        pass
    return x
