# E0201: `self.f(...)` names a method the program class does not have.
import pypto.language as pl


@pl.program
class Bad:
    @pl.function(type=pl.FunctionType.InCore)
    def double(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        y: pl.Tensor[[64], pl.FP32] = pl.add(x, x)
        return y

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        y: pl.Tensor[[64], pl.FP32] = self.triple(x)
        return y
