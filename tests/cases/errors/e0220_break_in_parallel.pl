# E0220: `break` in a `pl.parallel` loop and `continue` in a `pl.unroll` loop.
import pypto.language as pl


@pl.jit
def entry(x: pl.Tensor, n: pl.INDEX):
    for i in pl.parallel(8):
        if i > n:
            break
    for j in pl.unroll(4):
        if j > n:
            continue
    return x
