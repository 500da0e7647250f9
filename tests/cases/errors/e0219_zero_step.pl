# E0219: `pl.unroll(0, 8, 0)` — a zero step, which only pl.unroll refuses; the
# pl.range and pl.parallel loops with a zero step run zero times.
import pypto.language as pl


@pl.jit
def entry(x: pl.Tensor):
    for i in pl.range(0, 8, 0):
        pass
    for j in pl.parallel(4, 0, 0):
        pass
    for k in pl.unroll(0, 8, 0):
        pass
    return x
