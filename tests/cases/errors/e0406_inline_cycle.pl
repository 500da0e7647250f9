# Two Inline functions that call each other: splicing would never end. The cycle is
# reported at the function where the depth-first search (in program order) enters it.
import pypto.language as pl


@pl.program
class Cycle:
    @pl.function(type=pl.FunctionType.Inline)
    def a(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        y = self.b(x)
        return y

    @pl.function(type=pl.FunctionType.Inline)
    def b(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        y = self.a(x)
        return y

    @pl.function
    def main(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        z = self.a(x)
        return z
