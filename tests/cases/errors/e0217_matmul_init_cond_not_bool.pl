# E0217: `init_cond` of `pl.matmul_acc` must be a BOOL scalar (a comparison such as k == 0).
import pypto.language as pl


@pl.program
class Bad:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        a: pl.Tensor[[16, 32], pl.FP16],
        b: pl.Tensor[[32, 16], pl.FP16],
        c: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        a_l0 = pl.load(a, [0, 0], [16, 32], target_memory=pl.MemorySpace.Left)
        b_l0 = pl.load(b, [0, 0], [32, 16], target_memory=pl.MemorySpace.Right)
        acc = pl.create_tile([16, 16], pl.FP32, target_memory=pl.MemorySpace.Acc)
        for k in pl.range(2):
            acc = pl.matmul_acc(acc, a_l0, b_l0, init_cond=k)
        c = pl.store(acc, [0, 0], c)
        return c
