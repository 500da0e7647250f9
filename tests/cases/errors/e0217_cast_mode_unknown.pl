# E0217: the rounding mode of a cast is one of PyPTO's names.
import pypto.language as pl


@pl.program
class Cast:
    @pl.function(type=pl.FunctionType.Orchestration)
    def tensors(self, a: pl.Tensor[[16, 32], pl.FP32]) -> pl.Tensor[[16, 32], pl.FP32]:
        fine = pl.cast(a, pl.FP16, mode="trunc")
        bad = pl.cast(a, pl.FP16, mode="nearest")
        return a

    @pl.function(type=pl.FunctionType.InCore)
    def tiles(
        self, a: pl.Tensor[[16, 32], pl.FP32], out: pl.Out[pl.Tensor[[16, 32], pl.FP32]]
    ) -> pl.Tensor[[16, 32], pl.FP32]:
        t = pl.load(a, [0, 0], [16, 32])
        bad = pl.tile.cast(t, pl.BF16, "Round")
        out = pl.store(t, [0, 0], out)
        return out
