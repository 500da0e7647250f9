# `st_phase=` of `pl.store` is `pl.STPhase.<name>` or the name in lower case as a string
# ("unspecified", "partial", "final"), as PyPTO's newer releases spell it; another string or
# a number is refused.
import pypto.language as pl

N = 16


@pl.jit.incore
def kernel(x: pl.Tensor[[N, N], pl.FP32], out: pl.Out[pl.Tensor[[N, N], pl.FP32]]):
    t = pl.load(x, [0, 0], [N, N])
    out = pl.store(t, [0, 0], out, st_phase="final")
    out = pl.store(t, [0, 0], out, st_phase=pl.STPhase.Partial)
    out = pl.store(t, [0, 0], out, st_phase="Final")
    out = pl.store(t, [0, 0], out, st_phase=2)
    return out
