# A forgotten ')' before an expression statement costs one error; the later error is still found.
import pypto.language as pl


@pl.jit
def f(x: pl.Tensor):
    t = pl.load(x, [0, 0], [64, 64]
    pl.store(t, [0, 0], x)
    x[0:1, :] = 1 = 2
    return x
