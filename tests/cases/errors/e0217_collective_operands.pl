# The operands PyPTO's type deduction of the collectives checks: an all-reduce works on a
# window (`pld.DistributedTensor`) of FP16 or FP32 with an INT32 signal window, in the
# mesh or ring mode, and a reduce-scatter only sums.
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Collectives:
    @pl.function(type=pl.FunctionType.Orchestration)
    def plain_target(
        self,
        local: pl.Tensor[[1, 16], pl.FP32],
        signal: pl.InOut[pld.DistributedTensor[[2, 1], pl.INT32]],
    ) -> pl.Tensor[[1, 16], pl.FP32]:
        local = pld.tensor.allreduce(local, signal, op=pld.ReduceOp.Sum)
        return local

    @pl.function(type=pl.FunctionType.Orchestration)
    def float_signal(
        self,
        data: pl.InOut[pld.DistributedTensor[[1, 16], pl.FP32]],
        signal: pl.InOut[pld.DistributedTensor[[2, 2], pl.FP32]],
    ) -> pld.DistributedTensor[[1, 16], pl.FP32]:
        data = pld.tensor.allreduce(data, signal, mode="ring")
        return data

    @pl.function(type=pl.FunctionType.Orchestration)
    def integer_target(
        self,
        data: pl.InOut[pld.DistributedTensor[[1, 16], pl.INT32]],
        signal: pl.InOut[pld.DistributedTensor[[2, 1], pl.INT32]],
    ) -> pld.DistributedTensor[[1, 16], pl.INT32]:
        data = pld.tensor.allreduce(data, signal)
        return data

    @pl.function(type=pl.FunctionType.Orchestration)
    def unknown_mode(
        self,
        data: pl.InOut[pld.DistributedTensor[[1, 16], pl.FP32]],
        signal: pl.InOut[pld.DistributedTensor[[2, 1], pl.INT32]],
    ) -> pld.DistributedTensor[[1, 16], pl.FP32]:
        data = pld.tensor.allreduce(data, signal, mode="tree")
        return data

    @pl.function(type=pl.FunctionType.Orchestration)
    def scatter_max(
        self,
        data: pl.InOut[pld.DistributedTensor[[2, 16], pl.FP32]],
        signal: pl.InOut[pld.DistributedTensor[[2, 1], pl.INT32]],
    ) -> pld.DistributedTensor[[2, 16], pl.FP32]:
        data = pld.tensor.reduce_scatter(data, signal, op=pld.ReduceOp.Max)
        return data

    @pl.function(type=pl.FunctionType.Orchestration)
    def well_formed(
        self,
        data: pl.InOut[pld.DistributedTensor[[2, 16], pl.FP16]],
        signal: pl.InOut[pld.DistributedTensor[[2, 1], pl.INT32]],
    ) -> pld.DistributedTensor[[2, 16], pl.FP16]:
        data = pld.tensor.allreduce(data, signal, op=pld.ReduceOp.Max, mode="ring")
        data = pld.tensor.reduce_scatter(data, signal, op=pld.ReduceOp.Sum)
        return data
