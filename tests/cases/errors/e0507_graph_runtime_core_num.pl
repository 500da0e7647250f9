# E0507: a graph launches a task on a number of blocks known only at run time.
import pypto.language as pl


@pl.program
class Prog:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, a: pl.Tensor[[64], pl.FP32], out: pl.InOut[pl.Tensor[[64], pl.FP32]]) -> pl.Tensor[[64], pl.FP32]:
        t = pl.load(a, [0], [64])
        pl.store(t, [0], out)
        return out

    @pl.function(type=pl.FunctionType.Spmd)
    def blocks(self, a: pl.Tensor[[64], pl.FP32], out: pl.InOut[pl.Tensor[[64], pl.FP32]]) -> pl.Tensor[[64], pl.FP32]:
        out = self.kernel(a, out)
        return out

    @pl.function(type=pl.FunctionType.Graph)
    def layer(self, a: pl.Tensor[[64], pl.FP32], c: pl.InOut[pl.Tensor[[64], pl.FP32]], n: pl.Scalar[pl.INDEX]) -> pl.Tensor[[64], pl.FP32]:
        c, tid = pl.spmd_submit(self.blocks, a, c, core_num=n)
        return c
