# E0221: a `pl.yield_` at the top of a function body, outside any loop or `if`.
import pypto.language as pl


@pl.program
class Bad:
    @pl.function
    def main(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        y = pl.yield_(x)
        return x
