# E0211: a method call on a value (`x.add(x)`) is not a pl operation.
import pypto.language as pl


@pl.jit
def entry(x: pl.Tensor):
    y = x.add(x)
    return y
