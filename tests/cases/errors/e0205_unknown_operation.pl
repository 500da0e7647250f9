# E0205: `pl.nonexistent_op(x)` names no operation of the pl language.
import pypto.language as pl


@pl.program
class Bad:
    @pl.function
    def main(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        y: pl.Tensor[[64], pl.FP32] = pl.nonexistent_op(x)
        return y
