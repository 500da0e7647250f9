# The communication-context and signal checks of the distributed ops (ops.md §2.7):
# `pld.get_comm_ctx` takes a window-bound `pld.DistributedTensor` (not a plain tensor),
# `pld.rank` / `pld.nranks` take the `pld.CommCtx` it returns, `pld.system.wait` waits on a
# window-bound signal with one offset per dimension, and `pld.system.defer_wait` takes
# integer offsets and an integer threshold, a constant one in [0, INT32_MAX].
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Signals:
    @pl.function(type=pl.FunctionType.InCore)
    def worker(
        self,
        x: pl.Tensor[[64], pl.FP32],
        data: pld.DistributedTensor[[64], pl.FP32],
        signal: pld.DistributedTensor[[4], pl.INT32],
        level: pl.Scalar[pl.FP32],
    ):
        ctx = pld.get_comm_ctx(x)
        me = pld.rank(data)
        pld.system.wait(x, offsets=[0], expected=1, cmp=pld.WaitCmp.Eq)
        pld.system.wait(data, offsets=[0, 0], expected=1, cmp=pld.WaitCmp.Eq)
        pld.system.defer_wait(signal, offsets=[0.5], expected=1, cmp=pld.WaitCmp.Ge)
        pld.system.defer_wait(signal, offsets=[0], expected=level, cmp=pld.WaitCmp.Ge)
        pld.system.defer_wait(signal, offsets=[0], expected=-1, cmp=pld.WaitCmp.Ge)
