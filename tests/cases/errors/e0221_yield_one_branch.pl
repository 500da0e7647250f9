# E0221: only one branch of an `if` ends in `pl.yield_`.
import pypto.language as pl


@pl.program
class Bad:
    @pl.function
    def main(self, x: pl.Tensor[[64], pl.FP32], n: pl.Scalar[pl.INDEX]) -> pl.Tensor[[64], pl.FP32]:
        if n > 0:
            a: pl.Tensor[[64], pl.FP32] = pl.add(x, x)
            r = pl.yield_(a)
        else:
            b: pl.Tensor[[64], pl.FP32] = pl.mul(x, x)
        return x
