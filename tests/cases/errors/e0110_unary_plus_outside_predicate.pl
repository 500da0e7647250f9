# Unary `+` is refused outside a `predicate=` comparison, even inside a launch's other
# arguments.
import pypto.language as pl


@pl.program
class Plus:
    @pl.function(type=pl.FunctionType.InCore)
    def work(self, x: pl.Tensor[[16], pl.FP32], y: pl.Out[pl.Tensor[[16], pl.FP32]]) -> pl.Tensor[[16], pl.FP32]:
        t = pl.load(x, [0], [16])
        y = pl.store(t, [0], y)
        return y

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[16], pl.FP32], y: pl.Out[pl.Tensor[[16], pl.FP32]]) -> pl.Tensor[[16], pl.FP32]:
        y, _ = pl.spmd_submit(self.work, x, y, core_num=+1)
        return y
