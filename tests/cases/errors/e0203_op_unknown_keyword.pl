# E0203: `pl.load(..., memory=...)` — the keyword is `target_memory=`.
import pypto.language as pl


@pl.jit
def entry(x: pl.Tensor, out: pl.Out[pl.Tensor]):
    with pl.at(level=pl.Level.CORE_GROUP):
        t = pl.load(x, [0, 0], [64, 64], memory=pl.MemorySpace.Vec)
        pl.store(t, [0, 0], out)
    return out
