# E0307: a graph region in a device kernel: `@pl.function(type=pl.FunctionType.AIC)`.
import pypto.language as pl


@pl.program
class Bad:
    @pl.function(type=pl.FunctionType.AIC)
    def kernel(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        with pl.graph("layer"):
            y: pl.Tensor[[64], pl.FP32] = pl.add(x, x)
        return y
