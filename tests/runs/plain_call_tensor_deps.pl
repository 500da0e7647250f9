# deps=[a] on a plain kernel call in a manual scope names a producer's result: the call
# waits for the task that wrote it (no race reported). The C++ emitter does not translate
# a tensor in deps= yet, so this is a run-only program.
# run: --entry chained
import pypto.language as pl
@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def bump(self, acc: pl.InOut[pl.Tensor[[16], pl.FP32]]) -> pl.Tensor[[16], pl.FP32]:
        t = pl.tile.load(acc, [0], [16])
        u = pl.tile.adds(t, 1.0)
        return pl.tile.store(u, [0], acc)
    @pl.function(type=pl.FunctionType.InCore)
    def twice(self, x: pl.Tensor[[16], pl.FP32], y: pl.Out[pl.Tensor[[16], pl.FP32]]) -> pl.Tensor[[16], pl.FP32]:
        t = pl.tile.load(x, [0], [16])
        u = pl.tile.add(t, t)
        return pl.tile.store(u, [0], y)
    @pl.function(type=pl.FunctionType.Orchestration)
    def chained(self, acc: pl.InOut[pl.Tensor[[16], pl.FP32]], y: pl.Out[pl.Tensor[[16], pl.FP32]]) -> pl.Tensor[[16], pl.FP32]:
        with pl.manual_scope():
            first = self.bump(acc)
            y = self.twice(first, y, deps=[first])
        return y
