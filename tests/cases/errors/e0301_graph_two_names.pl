# E0301: `pl.graph("a", "b")` with two positional arguments: exactly one name is allowed.
import pypto.language as pl


@pl.program
class Bad:
    @pl.function
    def main(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        with pl.graph("layer", "extra"):
            y: pl.Tensor[[64], pl.FP32] = pl.add(x, x)
        return y
