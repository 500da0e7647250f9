# E0208: a parameter without a type annotation.
import pypto.language as pl


@pl.program
class Bad:
    @pl.function
    def main(self, x) -> pl.Tensor[[64], pl.FP32]:
        y: pl.Tensor[[64], pl.FP32] = pl.add(x, x)
        return y
