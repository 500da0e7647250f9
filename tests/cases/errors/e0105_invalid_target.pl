# E0105: assignments to things that cannot be assigned.
import pypto.language as pl


@pl.jit
def f(x: pl.Tensor, n: pl.INDEX):
    pl.add(x, x) = x
    1 = n
    n + 1 = 2
    a, pl.mul(x, x) = x, x
    (b, c): pl.Tensor = x
    for pl.load(x) in pl.range(4):
        pass
    with pl.at(level=pl.Level.CORE_GROUP) as n + 1:
        pass
    "s" = n
    return x
