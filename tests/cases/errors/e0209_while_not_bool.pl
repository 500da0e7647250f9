# E0209: `while n:` on an INDEX scalar — the condition must be a comparison.
import pypto.language as pl


@pl.jit
def entry(x: pl.Tensor, n: pl.INDEX):
    while n:
        n = n - 1
    return x
