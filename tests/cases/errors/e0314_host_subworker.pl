# E0314: an inline `pl.at(level=pl.Level.HOST, role=pl.Role.SubWorker)` is not supported.
import pypto.language as pl


@pl.jit
def entry(x: pl.Tensor, out: pl.Out[pl.Tensor]):
    with pl.at(level=pl.Level.HOST, role=pl.Role.SubWorker):
        pass
    return out
