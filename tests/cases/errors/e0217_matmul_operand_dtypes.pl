# E0217: the operands of a tile matmul must have one dtype.
import pypto.language as pl


@pl.program
class Bad:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        a: pl.Tensor[[16, 32], pl.FP16],
        b: pl.Tensor[[32, 16], pl.BF16],
        c: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        a_l0 = pl.load(a, [0, 0], [16, 32], target_memory=pl.MemorySpace.Left)
        b_l0 = pl.load(b, [0, 0], [32, 16], target_memory=pl.MemorySpace.Right)
        acc = pl.matmul(a_l0, b_l0)
        c = pl.store(acc, [0, 0], c)
        return c
