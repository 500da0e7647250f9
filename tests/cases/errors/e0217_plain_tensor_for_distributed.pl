# A plain tensor may not stand where a `pld.DistributedTensor` parameter is declared: only
# a window (`pld.window(...)`) is reachable from the other ranks.
import pypto.language as pl
import pypto.language.distributed as pld


@pl.jit.incore
def publish(src: pl.Tensor[[1, 64], pl.FP32], shared: pld.DistributedTensor[[1, 64], pl.FP32]):
    row = pl.load(src, [0, 0], [1, 64])
    shared = pl.store(row, [0, 0], shared)
    return shared


@pl.jit
def entry(src: pl.Tensor[[1, 64], pl.FP32], local: pl.Tensor[[1, 64], pl.FP32]):
    return publish(src, local)
