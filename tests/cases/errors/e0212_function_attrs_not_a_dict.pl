# E0212: attrs= of @pl.function must be a dict literal.
import pypto.language as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore, attrs=[1])
    def k(self, x: pl.Tensor[[4, 8], pl.FP32], y: pl.Out[pl.Tensor[[4, 8], pl.FP32]]) -> pl.Tensor[[4, 8], pl.FP32]:
        y = pl.store(pl.load(x, [0, 0], [4, 8]), [0, 0], y)
        return y
