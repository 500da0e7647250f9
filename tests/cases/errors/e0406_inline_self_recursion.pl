# An Inline function that calls itself is a cycle of one.
import pypto.language as pl


@pl.program
class Recursive:
    @pl.function(type=pl.FunctionType.Inline)
    def halve(self, x: pl.Tensor[[64], pl.FP32], n: pl.Scalar[pl.INDEX]) -> pl.Tensor[[64], pl.FP32]:
        if n > 0:
            x = self.halve(pl.mul(x, 0.5), n - 1)
        return x

    @pl.function
    def main(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        y = self.halve(x, 3)
        return y
