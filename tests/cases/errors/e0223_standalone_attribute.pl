# E0223: a standalone attribute (`x.T`) is not a pl value.
import pypto.language as pl


@pl.jit
def entry(x: pl.Tensor):
    y = x.T
    return y
