# PyPTO's collective wrappers in a host orchestrator, each a `pld.tensor.*` collective with
# the signal it allocates itself: `pld.all_reduce` (mesh, or ring with a constant `nranks`),
# `pld.all_gather`, `pld.reduce_scatter`, `pld.broadcast(target, root=...)`,
# `pld.all_to_all` and `pld.barrier(signal)` (a signal the caller gives). plc checks such a
# program; the distributed ops have no CPU form (docs/kernels.md).
import pypto.language as pl
import pypto.language.distributed as pld

SIZE = 8


@pl.program
class Collectives:
    @pl.function(type=pl.FunctionType.InCore)
    def publish_step(
        self,
        inp: pl.Tensor[[1, SIZE], pl.FP32],
        data: pl.InOut[pld.DistributedTensor[[1, SIZE], pl.FP32]],
    ) -> pld.DistributedTensor[[1, SIZE], pl.FP32]:
        return pl.store(pl.load(inp, [0, 0], [1, SIZE]), [0, 0], data)

    @pl.function(type=pl.FunctionType.Orchestration)
    def publish_orch(
        self,
        inp: pl.Tensor[[1, SIZE], pl.FP32],
        data: pl.InOut[pld.DistributedTensor[[1, SIZE], pl.FP32]],
    ) -> pld.DistributedTensor[[1, SIZE], pl.FP32]:
        return self.publish_step(inp, data)

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(
        self,
        inputs: pl.Tensor[[2, 1, SIZE], pl.FP32],
        outputs: pl.InOut[pl.Tensor[[2, 1, SIZE], pl.FP32]],
    ) -> pl.Tensor[[2, 1, SIZE], pl.FP32]:
        data_buf = pld.alloc_window_buffer(SIZE * pl.FP32.get_byte())
        target_buf = pld.alloc_window_buffer(2 * SIZE * pl.FP32.get_byte())
        for r in pl.range(2):
            data = pld.window(data_buf, [1, SIZE], dtype=pl.FP32)
            self.publish_orch(inputs[r], data, device=r)
        data = pld.window(data_buf, [1, SIZE], dtype=pl.FP32)
        data = pld.all_reduce(data, op=pld.ReduceOp.Sum)
        target = pld.window(target_buf, [2, SIZE], dtype=pl.FP32)
        target = pld.all_gather(data, target)
        data = pld.all_reduce(data, op=pld.ReduceOp.Sum, mode="ring", nranks=2)
        target = pld.reduce_scatter(target, op=pld.ReduceOp.Sum)
        data = pld.broadcast(data, root=1)
        target = pld.all_to_all(inputs[0], target)
        flags_buf = pld.alloc_window_buffer(2 * pl.INT32.get_byte())
        flags = pld.window(flags_buf, [2], dtype=pl.INT32)
        flags = pld.barrier(flags)
        return outputs
