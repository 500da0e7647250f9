# E0207: `int` and a tuple type are not pl parameter types.
import pypto.language as pl


@pl.program
class Bad:
    @pl.function
    def main(self, x: pl.Tensor[[64], pl.FP32], n: int) -> pl.Tensor[[64], pl.FP32]:
        y: pl.Tensor[[64], pl.FP32] = pl.add(x, x)
        return y

    @pl.function
    def pair(self, p: pl.Tuple[pl.Scalar[pl.INDEX], pl.Scalar[pl.INDEX]], x: pl.Tensor[[64], pl.FP32]):
        return x
