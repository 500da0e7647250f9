# E0219: `for i in range(10):` — a pl loop iterates over `pl.range` (reference E15).
import pypto.language as pl


@pl.program
class Bad:
    @pl.function
    def main(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        y: pl.Tensor[[64], pl.FP32] = pl.add(x, x)
        for i in range(10):
            y = pl.add(y, x)
        return y
