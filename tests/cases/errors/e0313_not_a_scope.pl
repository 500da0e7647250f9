# E0313: `with` statements that are not pl scopes: a Python context manager, and an
# unknown `pl.` function.
import pypto.language as pl


@pl.jit
def entry(x: pl.Tensor, out: pl.Out[pl.Tensor]):
    with open("log.txt"):
        pass
    with pl.region():
        pass
    return out
