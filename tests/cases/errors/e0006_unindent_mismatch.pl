# E0006: a line dedented to a column that no enclosing block uses.
import pypto.language as pl


@pl.jit
def f(x: pl.Tensor):
    for i in pl.range(4):
            a = i
        b = a
    return x
