# Call forms of the distributed and cross-core ops that PyPTO rejects (ops.md §2.4, §2.7):
# `pld.tensor.remote_store` takes a tensor source (a tile goes through `pld.tile.remote_store`
# or `pld.remote_store`), `pld.system.defer_wait` compares with `Ge` only and
# `pld.system.wait` with `Eq` or `Ge`, and a pop names both its shape and its dtype or
# neither.
import pypto.language as pl
import pypto.language.distributed as pld


@pl.jit.incore
def k(
    mine: pl.Tensor[[1, 64], pl.FP32],
    rows: pld.DistributedTensor[[4, 64], pl.FP32],
    signal: pld.DistributedTensor[[4, 1], pl.INT32],
):
    row = pl.load(mine, [0, 0], [1, 64])
    pld.tensor.remote_store(row, rows, 1, [0, 0])
    pld.system.defer_wait(signal, [0, 0], 1, cmp=pld.WaitCmp.Eq)
    pld.system.wait(signal, [0, 0], 1, cmp=pld.WaitCmp.Gt)
    t = pl.system.tpop_from_aic(shape=[16, 16])
