# E0223: a dict literal outside `attrs=`, and an f-string outside `pl.static_print`.
import pypto.language as pl


@pl.jit
def entry(x: pl.Tensor, n: pl.INDEX):
    d = {"a": 1}
    s = f"n={n}"
    return x
