# Module constants PyPTO reads as closure values and plc folds at compile time: a
# conditional expression (`A if COND else B`, also unpacked into several names), a `pld`
# enum member and another name for it, and a dtype's byte size `pl.FP32.get_byte()`.
import pypto.language as pl
import pypto.language.distributed as pld

WIDE = False
M, N = (16, 64) if WIDE else (8, 32)
SPACE = pl.Mem.Mat if WIDE else pl.Mem.Vec
ROW_BYTES = N * pl.FP32.get_byte()
REDUCE = pld.ReduceOp.Max
OP = REDUCE


@pl.program
class ConstantForms:
    @pl.function(type=pl.FunctionType.InCore)
    def scale(
        self,
        x: pl.Tensor[[M, N], pl.FP32],
        out: pl.Out[pl.Tensor[[M, N], pl.FP32]],
    ) -> pl.Tensor[[M, N], pl.FP32]:
        t = pl.load(x, [0, 0], [M, N], target_memory=SPACE)
        return pl.store(pl.mul(t, ROW_BYTES), [0, 0], out)

    @pl.function(type=pl.FunctionType.Orchestration)
    def chip_orch(self, data: pld.DistributedTensor[[N], pl.FP32]):
        return data

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self):
        data_buf = pld.alloc_window_buffer(ROW_BYTES)
        data = pld.window(data_buf, [N], dtype=pl.FP32)
        for r in pl.range(pld.world_size()):
            self.chip_orch(data, device=r)
        pld.tensor.allreduce(data, op=OP)
        return 0
