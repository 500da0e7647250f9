# E0212: `@pl.program` takes only `strict_ssa=`; and `@pl.function` does not apply to a
# class.
import pypto.language as pl


@pl.program(name="Prog")
class Prog:
    @pl.function
    def main(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        y: pl.Tensor[[64], pl.FP32] = pl.add(x, x)
        return y


@pl.function
class NotAProgram:
    @pl.function
    def main(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        return x
