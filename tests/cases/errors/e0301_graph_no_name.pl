# E0301: `pl.graph()` with no positional argument: a graph region needs exactly one name.
import pypto.language as pl


@pl.program
class Bad:
    @pl.function
    def main(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        with pl.graph():
            y: pl.Tensor[[64], pl.FP32] = pl.add(x, x)
        return y
