# Forms newer than ops.md that PyPTO's codegen tests use: a kernel polls and bumps INT32
# signal slots with `pl.tile.comm_notify` / `comm_wait` / `comm_test` (no CPU form, like the
# `pld` ops), and `pl.tile.scatter_update` takes a scratch row tile before `dim=`.
import pypto.language as pl


@pl.program
class SignalSlots:
    @pl.function(type=pl.FunctionType.InCore)
    def barrier(self, flag: pl.Tensor[[1], pl.INT32], step: pl.Scalar[pl.INT32]) -> pl.Tensor[[1], pl.INT32]:
        pl.tile.comm_notify(flag, step, op="atomic_add")
        pl.tile.comm_notify(flag, 0, op="set")
        pl.tile.comm_wait(flag, 2, cmp="ge")
        done: pl.Scalar[pl.BOOL] = pl.tile.comm_test(flag, cmp_value=step, cmp="ne")
        return flag

    @pl.function(type=pl.FunctionType.InCore)
    def rows(
        self,
        table: pl.Tensor[[32, 16], pl.FP32],
        where: pl.Tensor[[2, 4], pl.INT32],
        fresh: pl.Tensor[[8, 16], pl.FP32],
        out: pl.Out[pl.Tensor[[32, 16], pl.FP32]],
    ) -> pl.Tensor[[32, 16], pl.FP32]:
        t = pl.load(table, [0, 0], [32, 16])
        k = pl.load(where, [0, 0], [2, 4])
        f = pl.load(fresh, [0, 0], [8, 16])
        row = pl.tile.create([1, 16], dtype=pl.FP32, target_memory=pl.MemorySpace.Vec)
        t = pl.tile.scatter_update(t, k, f, row, dim=-2)
        t = pl.tile.scatter_update(t, -2, k, f)
        return pl.store(t, [0, 0], out)
