# E0224: a method of a pl program whose first parameter is not `self`.
import pypto.language as pl


@pl.program
class Bad:
    @pl.function
    def main(x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        y: pl.Tensor[[64], pl.FP32] = pl.add(x, x)
        return y
