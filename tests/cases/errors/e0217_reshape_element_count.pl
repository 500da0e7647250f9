# E0217: a reshape (or a view with a new shape) keeps the number of elements when both
# shapes are static, at tensor and at tile level.
import pypto.language as pl


@pl.program
class Reshape:
    @pl.function(type=pl.FunctionType.Orchestration)
    def tensors(self, a: pl.Tensor[[16, 32], pl.FP32]) -> pl.Tensor[[16, 32], pl.FP32]:
        fine = pl.reshape(a, [32, 16])
        bad = pl.reshape(a, [8, 8])
        view = pl.tensor.view(a, [16, 16])
        return a

    @pl.function(type=pl.FunctionType.InCore)
    def tiles(
        self, a: pl.Tensor[[16, 32], pl.FP32], out: pl.Out[pl.Tensor[[16, 32], pl.FP32]]
    ) -> pl.Tensor[[16, 32], pl.FP32]:
        t = pl.load(a, [0, 0], [16, 32])
        fine = pl.tile.reshape(t, [512, 1])
        bad = pl.tile.reshape(t, [16, 16])
        out = pl.store(t, [0, 0], out)
        return out
