# E0306: a graph region inside `pl.cluster()`.
import pypto.language as pl


@pl.program
class Bad:
    @pl.function
    def main(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        with pl.cluster():
            with pl.graph("layer"):
                y: pl.Tensor[[64], pl.FP32] = pl.add(x, x)
        return y
