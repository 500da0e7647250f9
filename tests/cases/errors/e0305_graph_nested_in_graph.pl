# E0305: a graph region directly inside another graph region. The diagnostic points at
# the inner region and labels the outer one.
import pypto.language as pl


@pl.program
class Bad:
    @pl.function
    def main(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        with pl.graph("outer"):
            with pl.graph("inner"):
                y: pl.Tensor[[64], pl.FP32] = pl.add(x, x)
        return y
