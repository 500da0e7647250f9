# A plain call of a kernel is fire-and-forget: explicit dependencies go on `pl.submit`
# (or pl.system.task_dummy), not on the call (PyPTO at the reference commit refuses it).
import pypto.language as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k1(self, x: pl.Tensor[[16], pl.FP32], y: pl.Out[pl.Tensor[[16], pl.FP32]]) -> pl.Tensor[[16], pl.FP32]:
        t = pl.load(x, [0], [16])
        return pl.store(t, [0], y)

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[16], pl.FP32], y: pl.Out[pl.Tensor[[16], pl.FP32]]) -> pl.Tensor[[16], pl.FP32]:
        with pl.manual_scope():
            a, tid = pl.submit(self.k1, x, y)
            y = self.k1(x, y, deps=[tid])
        return y
