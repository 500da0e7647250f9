# The rounding mode of a cast by its code, as PyPTO's resolve_cast_mode takes it: none 0,
# rint 1, round 2, floor 3, ceil 4, trunc 5, odd 6. Lowering keeps the name, so the IR
# prints `mode="floor"` for `mode=3`. A scalar cast takes the default mode only, by name or
# by its code 2.
import pypto.language as pl


@pl.program
class CastModeCodes:
    @pl.function(type=pl.FunctionType.InCore)
    def tiles(
        self,
        a: pl.Tensor[[16, 32], pl.FP32],
        n: pl.Scalar[pl.FP32],
        out: pl.Out[pl.Tensor[[16, 32], pl.INT32]],
    ) -> pl.Tensor[[16, 32], pl.INT32]:
        t = pl.load(a, [0, 0], [16, 32])
        floor = pl.cast(t, pl.INT32, mode=3)
        ceil = pl.tile.cast(t, pl.INT32, 4)
        none = pl.cast(t, pl.FP16, mode=0)
        k = pl.cast(n, pl.INT32, mode=2)
        out = pl.store(pl.add(floor, ceil), [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        a: pl.Tensor[[16, 32], pl.FP32],
        out: pl.Out[pl.Tensor[[16, 32], pl.INT32]],
    ) -> pl.Tensor[[16, 32], pl.INT32]:
        half = pl.tensor.cast(a, pl.FP16, mode=6)
        out = self.tiles(a, 1.5, out)
        return out
