# E0304: the region name "class" is an identifier but a Python keyword.
import pypto.language as pl


@pl.program
class Bad:
    @pl.function
    def main(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        with pl.graph("class"):
            y: pl.Tensor[[64], pl.FP32] = pl.add(x, x)
        return y
