# E0302: the region name is an expression (a concatenation of two strings), not a single
# string literal. (Adjacent literals "a" "b" are one literal in Python; `+` is not.)
import pypto.language as pl


@pl.program
class Bad:
    @pl.function
    def main(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        with pl.graph("lay" + "er"):
            y: pl.Tensor[[64], pl.FP32] = pl.add(x, x)
        return y
