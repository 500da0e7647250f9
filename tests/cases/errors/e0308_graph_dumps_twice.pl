# E0308: `dumps=` given twice to `pl.graph`.
import pypto.language as pl


@pl.program
class Bad:
    @pl.function
    def main(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        with pl.graph("layer", dumps=[x], dumps=[x]):
            y: pl.Tensor[[64], pl.FP32] = pl.add(x, x)
        return y
