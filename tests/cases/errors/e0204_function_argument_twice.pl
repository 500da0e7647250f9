# E0204: a method argument given both by position and by keyword.
import pypto.language as pl


@pl.program
class Bad:
    @pl.function(type=pl.FunctionType.InCore)
    def double(self, a: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        y: pl.Tensor[[64], pl.FP32] = pl.add(a, a)
        return y

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        y: pl.Tensor[[64], pl.FP32] = self.double(x, a=x)
        return y
