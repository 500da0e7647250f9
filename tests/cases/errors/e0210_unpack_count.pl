# E0210: a call returning two values unpacked into three names.
import pypto.language as pl


@pl.program
class Bad:
    @pl.function(type=pl.FunctionType.InCore)
    def two(
        self, x: pl.Tensor[[64], pl.FP32]
    ) -> tuple[pl.Tensor[[64], pl.FP32], pl.Tensor[[64], pl.FP32]]:
        a: pl.Tensor[[64], pl.FP32] = pl.add(x, x)
        b: pl.Tensor[[64], pl.FP32] = pl.mul(x, x)
        return a, b

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        a, b, c = self.two(x)
        return a
