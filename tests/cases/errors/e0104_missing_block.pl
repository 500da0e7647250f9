# E0104: a statement ending in `:` not followed by an indented block.
import pypto.language as pl


@pl.jit
def f(x: pl.Tensor):
    for i in pl.range(4):
    y = pl.add(x, x)
    with pl.at(level=pl.Level.CORE_GROUP):
    return y


@pl.jit
def g(x: pl.Tensor):
