# PyPTO's parser forms that plc reads as PyPTO does (issue 11, ops.md §3.2): arithmetic on
# `pl.dynamic` dimensions in annotations (`N * 2` is an extent known at run time, written in
# place or bound to a module name like `ROWS`), and a
# method of a `@pl.program` without `self` (it takes its parameters as they are, and
# `self.scale(...)` calls it).
import pypto.language as pl

N = pl.dynamic("N")
ROWS = N * 2


@pl.program
class Doubled:
    @pl.function(type=pl.FunctionType.InCore)
    def scale(
        x: pl.Tensor[[N * 2, 64], pl.FP32], y: pl.Out[pl.Tensor[[N * 2, 64], pl.FP32]]
    ) -> pl.Tensor[[N * 2, 64], pl.FP32]:
        t = pl.load(x, [0, 0], [16, 64])
        y = pl.store(pl.tile.muls(t, 2.0), [0, 0], y)
        return y

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self, x: pl.Tensor[[ROWS, 64], pl.FP32], y: pl.Out[pl.Tensor[[ROWS, 64], pl.FP32]]
    ) -> pl.Tensor[[ROWS, 64], pl.FP32]:
        y = self.scale(x, y)
        return y
