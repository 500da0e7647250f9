# Tuples made in place in an orchestration function: `rows, cols = a.shape` (a tensor of
# declared shape) and `n, m = cols, rows`. Their elements are read where the tuple is
# indexed; the C++ build once stopped at E0612 ("a tuple value in orchestration code").
# `out` is `a` + 2 through a buffer of `a`'s shape (a = 1..8: sum 36 + 16 = 52).
# run: --entry main --arg a=[1,2,3,4,5,6,7,8]
import pypto.language as pl


@pl.program
class Unpack:
    @pl.function(type=pl.FunctionType.InCore)
    def add_one(
        self, x: pl.Tensor[[2, 4], pl.FP32], out: pl.Out[pl.Tensor[[2, 4], pl.FP32]]
    ) -> pl.Tensor[[2, 4], pl.FP32]:
        t = pl.load(x, [0, 0], [2, 4])
        u = pl.add(t, 1.0)
        out = pl.store(u, [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self, a: pl.Tensor[[2, 4], pl.FP32], out: pl.Out[pl.Tensor[[2, 4], pl.FP32]]
    ) -> pl.Tensor[[2, 4], pl.FP32]:
        rows, cols = a.shape
        n, m = cols, rows
        buf = pl.create_tensor([m, n], dtype=pl.FP32)
        buf = self.add_one(a, buf)
        out = self.add_one(buf, out)
        return out
