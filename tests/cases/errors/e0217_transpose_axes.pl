# E0217: the axes of a transpose are in range (negative axes count from the end) and
# differ, and the operand has at least 2 dimensions.
import pypto.language as pl


@pl.program
class Transpose:
    @pl.function(type=pl.FunctionType.Orchestration)
    def tensors(self, a: pl.Tensor[[16, 32], pl.FP32], v: pl.Tensor[[16], pl.FP32]) -> pl.Tensor[[16, 32], pl.FP32]:
        fine = pl.transpose(a, -1, 0)
        out_of_range = pl.transpose(a, 0, 2)
        same = pl.transpose(a, 1, -1)
        one_dim = pl.transpose(v, 0, 0)
        return a

    @pl.function(type=pl.FunctionType.InCore)
    def tiles(
        self, a: pl.Tensor[[16, 32], pl.FP32], out: pl.Out[pl.Tensor[[16, 32], pl.FP32]]
    ) -> pl.Tensor[[16, 32], pl.FP32]:
        t = pl.load(a, [0, 0], [16, 32])
        bad = pl.tile.transpose(t, -3, 1)
        out = pl.store(t, [0, 0], out)
        return out
