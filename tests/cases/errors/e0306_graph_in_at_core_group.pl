# E0306: a graph region inside `pl.at(level=pl.Level.CORE_GROUP)`, a device scope. The
# message names the construct as `pl.at(level=...)` and labels the enclosing region.
import pypto.language as pl


@pl.program
class Bad:
    @pl.function
    def main(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP):
            with pl.graph("layer"):
                y: pl.Tensor[[64], pl.FP32] = pl.add(x, x)
        return y
