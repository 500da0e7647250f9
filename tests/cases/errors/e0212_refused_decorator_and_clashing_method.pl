# A module-level function whose decorator plc refuses has no signature; a program method
# of the same name, called by bare name, then reports only the decorator and the clash,
# without crashing (found by fuzzing).
import pypto.language as pl


@pl.functoin(type=pl.FunctionType.InCore)
def helper(x: pl.Tensor[[64], pl.FP32]):
    return x


@pl.program
class Prog:
    @pl.function(type=pl.FunctionType.InCore)
    def helper(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        return x

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        y = helper(x)
        return y
