# Hints PyPTO's newer releases take that have no meaning on the CPU, kept in the IR so that
# the printed program reads back the same (docs/language.md): the L2 cache policy and hint
# of a load (`cache=`, `l2_hint=`), the L2 hint and unit-flag phase of a store
# (`l2_hint=`, `st_phase=`, an enum member or its name as a string), the accumulation phase of a gemv (`acc_phase=`),
# `optimizations=[pl.auto_chunk]` (also spelled `pl.optimizations.auto_chunk`) with
# `pl.parallel(..., chunk=N, chunk_policy="guarded")`, `pl.task_id_of` in a manual scope, and
# the cache-policy declaration `pl.set_cache_policy(t, policy)` (also `pl.tensor.set_cache_policy`),
# which plc drops.
import pypto.language as pl

N = 32


@pl.program
class CacheHints:
    @pl.function(type=pl.FunctionType.InCore)
    def copy(
        self,
        x: pl.Tensor[[N, N], pl.FP32],
        out: pl.Out[pl.Tensor[[N, N], pl.FP32]],
    ) -> pl.Tensor[[N, N], pl.FP32]:
        t = pl.load(x, [0, 0], [N, N], cache=pl.CachePolicy.BYPASS, l2_hint=pl.LoadL2Hint.NotAllocKeep)
        return pl.store(t, [0, 0], out, l2_hint=pl.StoreL2Hint.NormalPersistent, st_phase="unspecified")

    @pl.function(type=pl.FunctionType.InCore)
    def row_times(
        self,
        x: pl.Tensor[[1, N], pl.FP32],
        y: pl.Tensor[[N, N], pl.FP32],
        out: pl.Out[pl.Tensor[[1, N], pl.FP32]],
    ) -> pl.Tensor[[1, N], pl.FP32]:
        lhs = pl.load(x, [0, 0], [1, N], target_memory=pl.Mem.Mat)
        rhs = pl.load(y, [0, 0], [N, N], target_memory=pl.Mem.Mat)
        acc = pl.tile.gemv(
            pl.move(lhs, target_memory=pl.Mem.Left), pl.move(rhs, target_memory=pl.Mem.Right), acc_phase=pl.AccPhase.Final
        )
        return pl.store(acc, [0, 0], out, st_phase=pl.STPhase.Final)

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        x: pl.Tensor[[N, N], pl.FP32],
        v: pl.Tensor[[1, N], pl.FP32],
        copied: pl.Out[pl.Tensor[[N, N], pl.FP32]],
        doubled: pl.Out[pl.Tensor[[N, N], pl.FP32]],
        row: pl.Out[pl.Tensor[[1, N], pl.FP32]],
    ) -> tuple[pl.Tensor[[N, N], pl.FP32], pl.Tensor[[N, N], pl.FP32], pl.Tensor[[1, N], pl.FP32]]:
        with pl.manual_scope():
            copied = self.copy(x, copied)
            tid = pl.task_id_of(copied)
            row, second = pl.submit(self.row_times, v, copied, row, deps=[tid])
        with pl.at(level=pl.Level.CORE_GROUP, optimizations=[pl.optimizations.auto_chunk]):
            pl.set_cache_policy(x, pl.CachePolicy.BYPASS)
            pl.tensor.set_cache_policy(doubled, pl.CachePolicy.DEFAULT)
            for i in pl.parallel(0, 2, chunk=1, chunk_policy="guarded"):
                t = pl.slice(x, [N // 2, N], [i * (N // 2), 0])
                doubled = pl.assemble(doubled, pl.add(t, t), [i * (N // 2), 0])
        return copied, doubled, row
