# E0110: Python forms that pl does not have, each named in its message.
import pypto.language as pl


@pl.jit
def f(x: pl.Tensor, n: pl.INDEX):
    n += 1
    g = lambda v: v
    c = 0 < n < 8
    try:
        y = pl.add(x, x)
    except Exception:
        pass
    d = n if n > 0 else 0
    return x
