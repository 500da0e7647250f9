# A `predicate=` compares one element against a literal, which may carry a sign: `+3`
# is the literal 3 there (PyPTO reads the predicate's operands as written), while unary
# `+` stays refused everywhere else (E0110).
import pypto.language as pl


@pl.program
class Gated:
    @pl.function(type=pl.FunctionType.InCore)
    def route(self, flags: pl.Out[pl.Tensor[[16, 16], pl.INT32]]) -> pl.Tensor[[16, 16], pl.INT32]:
        t = pl.load(flags, [0, 0], [16, 16])
        flags = pl.store(t, [0, 0], flags)
        return flags

    @pl.function(type=pl.FunctionType.InCore)
    def work(self, x: pl.Tensor[[16, 16], pl.FP32], y: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        t = pl.load(x, [0, 0], [16, 16])
        y = pl.store(t, [0, 0], y)
        return y

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        x: pl.Tensor[[16, 16], pl.FP32],
        y: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
        flags: pl.Out[pl.Tensor[[16, 16], pl.INT32]],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        with pl.manual_scope():
            flags, f_tid = pl.spmd_submit(self.route, flags, core_num=1)
            y, _ = pl.spmd_submit(self.work, x, y, core_num=1, deps=[f_tid], predicate=flags[0, 1] >= +3)
        return y
