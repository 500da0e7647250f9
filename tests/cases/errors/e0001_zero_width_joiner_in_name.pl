# E0001: characters Python refuses in names: a zero-width joiner and a zero-width
# non-joiner inside identifiers (newer Unicode admits them; Python does not). The name
# stays one token, so the rest of the line is read normally.
import pypto.language as pl

ROWS‍A = 64


@pl.jit
def f(x: pl.Tensor, n‌2: pl.INDEX):
    a = n‌2 + 1
    return x
