# E0217: a cast's rounding mode given by a code outside PyPTO's 0..6 (resolve_cast_mode:
# "Invalid rounding mode 7. Expected int in range [0, 6]"), or as True/False; and a scalar
# cast with a mode other than the default 'round' (PyPTO: "Scalar inputs do not support
# non-default mode"), by code or by name.
import pypto.language as pl


@pl.program
class CastModeCode:
    @pl.function(type=pl.FunctionType.InCore)
    def tiles(
        self,
        a: pl.Tensor[[16, 32], pl.FP32],
        n: pl.Scalar[pl.FP32],
        out: pl.Out[pl.Tensor[[16, 32], pl.FP32]],
    ) -> pl.Tensor[[16, 32], pl.FP32]:
        t = pl.load(a, [0, 0], [16, 32])
        seven = pl.cast(t, pl.INT32, mode=7)
        negative = pl.tile.cast(t, pl.INT32, -1)
        flag = pl.cast(t, pl.INT32, mode=True)
        k = pl.cast(n, pl.INT32, mode=3)
        j = pl.cast(n, pl.INT32, mode="floor")
        out = pl.store(t, [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[16, 32], pl.FP32]) -> pl.Tensor[[16, 32], pl.FP32]:
        wide = pl.tensor.cast(a, pl.FP16, mode=99)
        return a
