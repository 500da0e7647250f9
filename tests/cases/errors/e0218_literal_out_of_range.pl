# E0218: an integer literal in a function body that does not fit in 64 bits.
import pypto.language as pl


@pl.jit
def entry(x: pl.Tensor, n: pl.INDEX):
    m = n + 99999999999999999999
    return x
