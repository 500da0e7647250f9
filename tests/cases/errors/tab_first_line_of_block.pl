# A tab on the first line of a block: one E0005, no cascade.
import pypto.language as pl


@pl.jit
def f(x: pl.Tensor):
    if x:
	a = 1
        b = 2
    return x
