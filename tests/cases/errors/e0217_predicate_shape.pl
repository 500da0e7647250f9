# E0217: a launch's `predicate=` is one test the runtime makes before it dispatches the
# task: one element of a signed-integer tensor, located by one non-negative index per axis,
# compared (==, !=, <, <=, >, >=, either way round) with an integer literal. A region's
# `predicate=` (pl.spmd, pl.at at CORE_GROUP) follows the same rule, and a tensor written
# in a region bound with `as tid` is produced by that task, so a later predicate on it
# needs `deps=[tid]`.
import pypto.language as pl


@pl.program
class Predicates:
    @pl.function(type=pl.FunctionType.InCore)
    def fill(self, counts: pl.Out[pl.Tensor[[4, 8], pl.INT32]]) -> pl.Tensor[[4, 8], pl.INT32]:
        t = pl.load(counts, [0, 0], [4, 8])
        counts = pl.store(t, [0, 0], counts)
        return counts

    @pl.function(type=pl.FunctionType.InCore)
    def work(self, x: pl.Tensor[[4, 8], pl.FP32], out: pl.Out[pl.Tensor[[4, 8], pl.FP32]]) -> pl.Tensor[[4, 8], pl.FP32]:
        t = pl.load(x, [0, 0], [4, 8])
        out = pl.store(t, [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        x: pl.Tensor[[4, 8], pl.FP32],
        out: pl.Out[pl.Tensor[[4, 8], pl.FP32]],
        counts: pl.Out[pl.Tensor[[4, 8], pl.INT32]],
        flags: pl.Tensor[[4, 8], pl.UINT16],
        limits: pl.Tensor[[4, 8], pl.INT64],
    ) -> pl.Tensor[[4, 8], pl.FP32]:
        with pl.manual_scope():
            counts, filled = pl.spmd_submit(self.fill, counts, core_num=1)
            out, a = pl.spmd_submit(self.work, x, out, core_num=1, deps=[filled], predicate=2 <= counts[3, 7])
            out, b = pl.spmd_submit(self.work, x, out, core_num=1, deps=[filled], predicate=counts[0, 0] > 1.5)
            out, c = pl.spmd_submit(self.work, x, out, core_num=1, deps=[filled], predicate=counts[1] == 0)
            out, d = pl.spmd_submit(self.work, x, out, core_num=1, deps=[filled], predicate=counts[-1, 0] != 0)
            out, e = pl.spmd_submit(self.work, x, out, core_num=1, predicate=flags[0, 0] > 0)
            out, f = pl.spmd_submit(self.work, x, out, core_num=1, deps=[filled], predicate=counts[x, 0] > 0)
            out, g = pl.spmd_submit(self.work, x, out, core_num=1, deps=[filled], predicate=counts)
        with pl.spmd(1) as region:
            counts = self.fill(counts)
        with pl.spmd(1, predicate=(counts[0, 0] > 0)):
            out = self.work(x, out)
        with pl.spmd(1, deps=[region], predicate=(counts[0, 0] % 4 == 0)):
            out = self.work(x, out)
        for i in pl.spmd(2, predicate=(limits[0, 0] > 0)):
            t = pl.load(x, [0, 0], [4, 8])
            out = pl.store(t, [0, 0], out)
        return out
