# E0218: a constant expression that overflows 64-bit integers.
import pypto.language as pl

BIG = 4611686018427387904
HUGE = BIG * 4


@pl.jit
def entry(x: pl.Tensor):
    return x
