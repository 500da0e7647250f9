# PyPTO's collective wrappers in a host orchestrator: `pld.all_reduce(target, op=...)` is
# `pld.tensor.allreduce` in its mesh form (no signal), and `pld.all_gather(local, target)`
# is `pld.tensor.allgather` with the signal the runtime allocates. plc checks such a
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
        return outputs
