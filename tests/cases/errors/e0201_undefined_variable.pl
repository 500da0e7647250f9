# E0201: a name used in a pl function that is defined nowhere (reference E15:
# `pl.add(x, undefined)`).
import pypto.language as pl


@pl.program
class Bad:
    @pl.function
    def main(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        y: pl.Tensor[[64], pl.FP32] = pl.add(x, undefined)
        return y
