# CRLF line endings throughout, also inside brackets and a triple-quoted string.
import pypto.language as pl


@pl.jit
def crlf(x: pl.Tensor, n: pl.INDEX):
    """Two
    lines."""
    a = pl.add(x,
               x)
    if n > 0:
        b = 1 + \
            2

    return a
