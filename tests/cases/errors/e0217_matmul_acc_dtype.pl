# E0217: the accumulator of `pl.matmul_acc` must already have the accumulator dtype of its
# inputs (FP32 for BF16), as PyPTO requires.
import pypto.language as pl


@pl.program
class Bad:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        a: pl.Tensor[[16, 32], pl.BF16],
        b: pl.Tensor[[32, 16], pl.BF16],
        c: pl.Out[pl.Tensor[[16, 16], pl.BF16]],
    ) -> pl.Tensor[[16, 16], pl.BF16]:
        a_l0 = pl.load(a, [0, 0], [16, 32], target_memory=pl.MemorySpace.Left)
        b_l0 = pl.load(b, [0, 0], [32, 16], target_memory=pl.MemorySpace.Right)
        acc = pl.create_tile([16, 16], pl.BF16, target_memory=pl.MemorySpace.Acc)
        acc = pl.matmul_acc(acc, a_l0, b_l0)
        c = pl.store(acc, [0, 0], c)
        return c
