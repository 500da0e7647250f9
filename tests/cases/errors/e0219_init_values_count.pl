# E0219: three iter args but two init values.
import pypto.language as pl


@pl.program
class Bad:
    @pl.function
    def main(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        a: pl.Tensor[[64], pl.FP32] = pl.add(x, x)
        b: pl.Tensor[[64], pl.FP32] = pl.mul(x, x)
        for i, (v1, v2, v3) in pl.range(5, init_values=(a, b)):
            n1 = pl.add(v1, v2)
            r1, r2, r3 = pl.yield_(n1, v2, v3)
        return a
