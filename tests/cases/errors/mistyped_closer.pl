# A mistyped closer is one error: ')' read as ']'.
import pypto.language as pl


@pl.jit
def f(x: pl.Tensor):
    t = pl.load(x, [0, 0), [64, 64])
    return t
