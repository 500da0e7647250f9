# PyPTO's matmul result types: a tile product of BF16 (or any float) inputs is an FP32 Acc
# tile, of INT8 inputs an INT32 one; `matmul_acc` keeps its FP32 accumulator; a tensor
# product without `out_dtype` has the promoted input dtype.
import pypto.language as pl


@pl.program
class Accumulators:
    @pl.function(type=pl.FunctionType.InCore)
    def bf16(
        self,
        a: pl.Tensor[[16, 32], pl.BF16],
        b: pl.Tensor[[32, 16], pl.BF16],
        c: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        a_l0 = pl.load(a, [0, 0], [16, 32], target_memory=pl.MemorySpace.Left)
        b_l0 = pl.load(b, [0, 0], [32, 16], target_memory=pl.MemorySpace.Right)
        acc: pl.Tile[[16, 16], pl.FP32, pl.MemorySpace.Acc] = pl.matmul(a_l0, b_l0)
        for k in pl.range(2):
            acc = pl.matmul_acc(acc, a_l0, b_l0, init_cond=k == 0)
        c = pl.store(acc, [0, 0], c)
        return c

    @pl.function(type=pl.FunctionType.InCore)
    def int8(
        self,
        a: pl.Tensor[[16, 32], pl.INT8],
        b: pl.Tensor[[32, 16], pl.INT8],
        c: pl.Out[pl.Tensor[[16, 16], pl.INT32]],
    ) -> pl.Tensor[[16, 16], pl.INT32]:
        a_l0 = pl.load(a, [0, 0], [16, 32], target_memory=pl.MemorySpace.Left)
        b_l0 = pl.load(b, [0, 0], [32, 16], target_memory=pl.MemorySpace.Right)
        acc: pl.Tile[[16, 16], pl.INT32, pl.MemorySpace.Acc] = pl.tile.matmul(a_l0, b_l0)
        c = pl.store(acc, [0, 0], c)
        return c

    @pl.function(type=pl.FunctionType.Opaque)
    def tensors(self, a: pl.Tensor[[16, 32], pl.FP16], b: pl.Tensor[[32, 16], pl.FP16]) -> pl.Tensor[[16, 16], pl.FP16]:
        c: pl.Tensor[[16, 16], pl.FP16] = pl.matmul(a, b)
        return c
