# E0308: `with pl.graph("layer") as tid:` — a graph region binds no name; only `pl.at`
# and `pl.spmd` take `as`.
import pypto.language as pl


@pl.program
class Bad:
    @pl.function
    def main(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        with pl.graph("layer") as tid:
            y: pl.Tensor[[64], pl.FP32] = pl.add(x, x)
        return y
