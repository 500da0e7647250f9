# E0217: `x = x + y` where x and y are tensors: Python operators work on scalars; tensors
# take `pl.add`.
import pypto.language as pl


@pl.program
class Bad:
    @pl.function
    def main(self, x: pl.Tensor[[64], pl.FP32], y: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        x = x + y
        return x
