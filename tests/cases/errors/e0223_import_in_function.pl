# E0223: an import inside a pl function.
import pypto.language as pl


@pl.jit
def entry(x: pl.Tensor):
    import math
    return x
