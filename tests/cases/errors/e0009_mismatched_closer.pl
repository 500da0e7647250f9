# E0009: a closing bracket that does not match the innermost open one (here the `]` was
# forgotten, and the `)` closes both brackets).
import pypto.language as pl


@pl.jit
def f(x: pl.Tensor):
    t = pl.load(x, [0, 0], [64, 64)
    return t
