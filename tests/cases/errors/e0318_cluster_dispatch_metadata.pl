# A pl.cluster() region becomes one Group function launched as a single task, so the
# launches inside it cannot carry per-task dispatch metadata (E0318): deps=, a true
# allow_early_resolve=, predicate=, pl.spmd_submit's core_num=, and on a nested
# `with pl.spmd(...)` the launch keywords or `as tid`. An all-None deps= carries nothing.
import pypto.language as pl


@pl.program
class Grouped:
    @pl.function(type=pl.FunctionType.AIC)
    def cube(self, v: pl.Tensor[[32], pl.INT32]) -> pl.Tensor[[32], pl.INT32]:
        return v

    @pl.function(type=pl.FunctionType.AIV)
    def vec(self, v: pl.Tensor[[32], pl.INT32]) -> pl.Tensor[[32], pl.INT32]:
        return v

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, v: pl.Tensor[[32], pl.INT32]) -> pl.Tensor[[32], pl.INT32]:
        with pl.cluster():
            p, p_tid = pl.submit(self.cube, v)
            q, _ = pl.submit(self.vec, p, deps=[p_tid])
            r, _ = pl.submit(self.vec, q, allow_early_resolve=True)
            s, _ = pl.submit(self.vec, r, deps=[None], allow_early_resolve=False)
            t, _ = pl.spmd_submit(self.vec, s, core_num=2)
            with pl.spmd(2, deps=[p_tid]):
                u = self.vec(s)
            with pl.spmd(2) as w_tid:
                w = self.vec(s)
        return s
