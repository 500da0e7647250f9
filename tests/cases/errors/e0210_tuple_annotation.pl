# Local tuple annotations (pl.Tuple[...] and tuple[...]) are checked element by element:
# E0210 names the first element that does not match.
import pypto.language as pl


@pl.program
class Program:
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[64, 64], pl.FP32]) -> pl.Tensor[[64, 64], pl.FP32]:
        pair: pl.Tuple[pl.Tensor[[64, 64], pl.FP32], pl.Tensor[[64, 64], pl.FP32]] = (x, x)
        other: tuple[pl.Tensor[[64, 64], pl.FP32], pl.Scalar[pl.INDEX]] = (x, 3)
        bad: tuple[pl.Tensor[[64, 64], pl.FP32], pl.Scalar[pl.INDEX]] = (x, x)
        a, b = pair
        return a
