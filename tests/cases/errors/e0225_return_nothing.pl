# E0225: a bare `return` in a function declared to return a tensor.
import pypto.language as pl


@pl.program
class Bad:
    @pl.function
    def main(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        y: pl.Tensor[[64], pl.FP32] = pl.add(x, x)
        return
