# E0214: a program method calls the module-level functions `helper` and `scaled` by bare
# name, but the program has methods of those names too. Both calls are ambiguous, whether
# the module-level function declares its return type (`scaled`) or not (`helper`).
import pypto.language as pl


@pl.function(type=pl.FunctionType.InCore)
def helper(x: pl.Tensor[[64], pl.FP32]):
    y: pl.Tensor[[64], pl.FP32] = pl.add(x, x)
    return y


@pl.function(type=pl.FunctionType.InCore)
def scaled(x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
    y: pl.Tensor[[64], pl.FP32] = pl.mul(x, 2.0)
    return y


@pl.program
class Prog:
    @pl.function(type=pl.FunctionType.InCore)
    def helper(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        y: pl.Tensor[[64], pl.FP32] = pl.mul(x, x)
        return y

    @pl.function(type=pl.FunctionType.InCore)
    def scaled(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        y: pl.Tensor[[64], pl.FP32] = pl.mul(x, 3.0)
        return y

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        a: pl.Tensor[[64], pl.FP32] = helper(x)
        b: pl.Tensor[[64], pl.FP32] = scaled(a)
        return b
