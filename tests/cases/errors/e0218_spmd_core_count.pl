# E0218: `pl.spmd(0)` — the core count must be positive.
import pypto.language as pl


@pl.jit
def entry(x: pl.Tensor, out: pl.Out[pl.Tensor]):
    for i in pl.spmd(0):
        t = pl.load(x, [i * 64, 0], [64, 64])
        out = pl.store(t, [i * 64, 0], out)
    return out
