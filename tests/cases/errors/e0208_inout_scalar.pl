# E0208: a scalar parameter marked `pl.InOut` (a scalar is passed by value).
import pypto.language as pl


@pl.program
class Bad:
    @pl.function
    def main(
        self, x: pl.Tensor[[64], pl.FP32], n: pl.InOut[pl.Scalar[pl.INDEX]]
    ) -> pl.Tensor[[64], pl.FP32]:
        y: pl.Tensor[[64], pl.FP32] = pl.add(x, x)
        return y
