# E0209: `if 1:` — an `if` condition must be a BOOL scalar (reference E15).
import pypto.language as pl


@pl.program
class Bad:
    @pl.function
    def main(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        y: pl.Tensor[[64], pl.FP32] = pl.add(x, x)
        if 1:
            y = pl.mul(y, y)
        return y
