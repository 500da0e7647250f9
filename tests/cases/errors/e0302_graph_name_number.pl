# E0302: the region name is a number, not a string literal.
import pypto.language as pl


@pl.program
class Bad:
    @pl.function
    def main(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        with pl.graph(4):
            y: pl.Tensor[[64], pl.FP32] = pl.add(x, x)
        return y
