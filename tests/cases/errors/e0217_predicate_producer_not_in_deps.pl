# E0217: a predicate= reading a tensor another launch produced lists that launch's task
# id in deps=; a task-id name bound again since then names another task.
import pypto.language as pl


@pl.program
class Gate:
    @pl.function(type=pl.FunctionType.InCore)
    def gate(self, g: pl.Out[pl.Tensor[[16, 16], pl.INT32]]) -> pl.Tensor[[16, 16], pl.INT32]:
        t = pl.load(g, [0, 0], [16, 16])
        g = pl.store(t, [0, 0], g)
        return g

    @pl.function(type=pl.FunctionType.InCore)
    def expert(self, x: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        t = pl.load(x, [0, 0], [16, 16])
        out = pl.store(t, [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        x: pl.Tensor[[16, 16], pl.FP32],
        out: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
        rc: pl.Out[pl.Tensor[[16, 16], pl.INT32]],
        fb: pl.Out[pl.Tensor[[16, 16], pl.INT32]],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        with pl.manual_scope():
            rc, tid = pl.submit(self.gate, rc)
            out, _ = pl.submit(self.expert, x, out, deps=[tid], predicate=(rc[0, 0] > 0))
            out, _ = pl.submit(self.expert, x, out, deps=[], predicate=(rc[0, 0] > 0))
            fb, tid = pl.submit(self.gate, fb)
            out, _ = pl.submit(self.expert, x, out, deps=[tid], predicate=(rc[0, 0] > 0))
        return out
