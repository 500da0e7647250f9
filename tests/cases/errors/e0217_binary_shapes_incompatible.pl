# E0217: the operands of an element-wise op broadcast (an axis pairs equal extents or an
# extent of 1 with anything), at tensor and at tile level.
import pypto.language as pl


@pl.program
class Broadcast:
    @pl.function(type=pl.FunctionType.Orchestration)
    def tensors(self, big: pl.Tensor[[16, 32], pl.FP32], col: pl.Tensor[[16, 1], pl.FP32]) -> pl.Tensor[[16, 32], pl.FP32]:
        fine = pl.mul(big, col)
        top = pl.slice(big, [8, 32], [0, 0])
        bad = pl.add(big, top)
        return fine

    @pl.function(type=pl.FunctionType.InCore)
    def tiles(
        self, big: pl.Tensor[[16, 32], pl.FP32], out: pl.Out[pl.Tensor[[16, 32], pl.FP32]]
    ) -> pl.Tensor[[16, 32], pl.FP32]:
        whole = pl.load(big, [0, 0], [16, 32])
        narrow = pl.load(big, [0, 0], [16, 8])
        bad = pl.sub(whole, narrow)
        out = pl.store(whole, [0, 0], out)
        return out
