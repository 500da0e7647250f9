# E0210: a name holding a [64] tensor is reassigned with a [32] tensor.
import pypto.language as pl


@pl.program
class Bad:
    @pl.function
    def main(self, x: pl.Tensor[[64], pl.FP32], z: pl.Tensor[[32], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        y: pl.Tensor[[64], pl.FP32] = pl.add(x, x)
        y = pl.add(z, z)
        return x
