# E0225: a function declared to return two values returns one.
import pypto.language as pl


@pl.program
class Bad:
    @pl.function
    def main(
        self, x: pl.Tensor[[64], pl.FP32]
    ) -> tuple[pl.Tensor[[64], pl.FP32], pl.Tensor[[64], pl.FP32]]:
        y: pl.Tensor[[64], pl.FP32] = pl.add(x, x)
        return y
