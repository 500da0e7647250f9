# E0207: a shape dimension that is not an extent (a float).
import pypto.language as pl


@pl.program
class Bad:
    @pl.function
    def main(self, x: pl.Tensor[[64.5], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        y: pl.Tensor[[64], pl.FP32] = pl.add(x, x)
        return y
