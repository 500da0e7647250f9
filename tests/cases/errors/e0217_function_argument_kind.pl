# E0217: a scalar passed where a method takes a tensor, or a tensor of other elements. A
# tensor of the same dtype whose shape differs only by extent-1 axes holds the same
# elements in the same order and is taken (PyPTO checks only the argument count).
import pypto.language as pl


@pl.program
class Bad:
    @pl.function(type=pl.FunctionType.InCore)
    def double(self, a: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        y: pl.Tensor[[64], pl.FP32] = pl.add(a, a)
        return y

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[64], pl.FP32], n: pl.Scalar[pl.INDEX]) -> pl.Tensor[[64], pl.FP32]:
        y: pl.Tensor[[64], pl.FP32] = self.double(n)
        return y

    @pl.function(type=pl.FunctionType.Orchestration)
    def shapes(self, x: pl.Tensor[[1, 64], pl.FP32], w: pl.Tensor[[2, 32], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        y: pl.Tensor[[64], pl.FP32] = self.double(x)
        z: pl.Tensor[[64], pl.FP32] = self.double(w)
        return z
