# E0517: a Graph function launched with deps=: the launch could not be cached.
import pypto.language as pl


@pl.program
class Prog:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, a: pl.Tensor[[64], pl.FP32], out: pl.InOut[pl.Tensor[[64], pl.FP32]]) -> pl.Tensor[[64], pl.FP32]:
        t = pl.load(a, [0], [64])
        pl.store(t, [0], out)
        return out

    @pl.function(type=pl.FunctionType.Graph)
    def layer(self, a: pl.Tensor[[64], pl.FP32], c: pl.InOut[pl.Tensor[[64], pl.FP32]]) -> pl.Tensor[[64], pl.FP32]:
        c = self.kernel(a, c)
        return c

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[64], pl.FP32], c: pl.InOut[pl.Tensor[[64], pl.FP32]]) -> pl.Tensor[[64], pl.FP32]:
        c, first = pl.submit(self.kernel, a, c)
        c, second = pl.submit(self.layer, a, c, deps=[first])
        return c
