# E0304: the region name "2nd_layer" starts with a digit, so it is not an identifier.
import pypto.language as pl


@pl.program
class Bad:
    @pl.function
    def main(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        with pl.graph("2nd_layer"):
            y: pl.Tensor[[64], pl.FP32] = pl.add(x, x)
        return y
