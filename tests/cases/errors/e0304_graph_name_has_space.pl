# E0304: the region name "has space" is a string literal but not an identifier.
import pypto.language as pl


@pl.program
class Bad:
    @pl.function
    def main(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        with pl.graph("has space"):
            y: pl.Tensor[[64], pl.FP32] = pl.add(x, x)
        return y
