# E0222: a pl function uses an outside library (`torch`), whose import is skipped with
# note N0003: as a dtype (`torch.float32`) and as a call (`torch.zeros(...)`).
import pypto.language as pl
import torch


@pl.jit
def entry(x: pl.Tensor, out: pl.Out[pl.Tensor]):
    with pl.at(level=pl.Level.CORE_GROUP):
        t = pl.load(x, [0, 0], [64, 64])
        u = pl.cast(t, torch.float32)
        pl.store(u, [0, 0], out)
    z = torch.zeros(4)
    return out
