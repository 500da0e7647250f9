# E0210: a tile matmul of FP16 inputs gives an FP32 accumulator tile, not FP16.
import pypto.language as pl


@pl.program
class Bad:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        a: pl.Tensor[[16, 32], pl.FP16],
        b: pl.Tensor[[32, 16], pl.FP16],
        c: pl.Out[pl.Tensor[[16, 16], pl.FP16]],
    ) -> pl.Tensor[[16, 16], pl.FP16]:
        a_l0 = pl.load(a, [0, 0], [16, 32], target_memory=pl.MemorySpace.Left)
        b_l0 = pl.load(b, [0, 0], [32, 16], target_memory=pl.MemorySpace.Right)
        acc: pl.Tile[[16, 16], pl.FP16, pl.MemorySpace.Acc] = pl.matmul(a_l0, b_l0)
        c = pl.store(acc, [0, 0], c)
        return c
