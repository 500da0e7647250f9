# E0218 in a function body: integer arithmetic Python would not give a 64-bit result for
# (an overflow, a division by constant zero, a negative shift count) is refused when it is
# compiled (`pl.range(2 ** 200)` looped 2**63 times in C++; `n // 0` and `n << -1` were
# emitted unchanged). Issue 15, items 9 and 12.
import pypto.language as pl


@pl.jit
def entry(n: pl.Scalar[pl.INDEX], x: pl.Tensor[[64], pl.FP32], out: pl.Out[pl.Tensor[[64], pl.FP32]]):
    a = 2 ** 63
    b = n // 0
    c = n % 0
    d = n << -1
    e = 7 // 0
    f = 1 << 63
    g = -9223372036854775807 - 1
    h = g * -1
    i = (1 << 62) >> 70
    for j in pl.range(2 ** 200):
        pass
    return out
