# E0219: a loop target `i, (acc,)` without `init_values=`.
import pypto.language as pl


@pl.program
class Bad:
    @pl.function
    def main(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        for i, (acc,) in pl.range(5):
            pass
        return x
