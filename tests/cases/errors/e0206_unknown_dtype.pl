# E0206: `pl.FP33` is not a dtype; the message lists the valid ones. `pl.FP4E2M1X2` (two
# FP4 values packed in a byte, newer than the reference; PyPTO's tests write it) is one.
import pypto.language as pl


@pl.program
class Bad:
    @pl.function
    def main(self, x: pl.Tensor[[64], pl.FP33]) -> pl.Tensor[[64], pl.FP32]:
        y: pl.Tensor[[64], pl.FP32] = pl.add(x, x)
        return y

    @pl.function(type=pl.FunctionType.InCore)
    def packed(
        self,
        x: pl.Tensor[[16, 32], pl.FP4E2M1X2],
        out: pl.Out[pl.Tensor[[16, 32], pl.FP4E2M1X2]],
    ) -> pl.Tensor[[16, 32], pl.FP4E2M1X2]:
        t = pl.load(x, [0, 0], [16, 32])
        return pl.store(t, [0, 0], out)
