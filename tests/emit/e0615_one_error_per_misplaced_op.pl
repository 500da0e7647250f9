# An op computing on data in orchestration code is E0615, reported once: the `if` that
# merges its result with a core-group region's result is not an error of its own.
import pypto.language as pl


@pl.program
class MisplacedInBranch:
    @pl.function
    def main(self, x: pl.Tensor[[64], pl.FP32], cond: pl.Scalar[pl.BOOL]) -> pl.Tensor[[64], pl.FP32]:
        if cond:
            with pl.at(level=pl.Level.CORE_GROUP):
                y: pl.Tensor[[64], pl.FP32] = pl.add(x, x)
        else:
            y: pl.Tensor[[64], pl.FP32] = pl.mul(x, x)
        return y
