# E0308: `pl.graph` takes no keyword argument besides `dumps=`: `name_hint=` is refused.
import pypto.language as pl


@pl.program
class Bad:
    @pl.function
    def main(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        with pl.graph("layer", name_hint="layer"):
            y: pl.Tensor[[64], pl.FP32] = pl.add(x, x)
        return y
