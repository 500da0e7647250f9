# Checks of ops.md §4 and §2 that plc lacked (issue 11, probe round 6): a range of a tile
# subscript starts at a compile-time integer and covers a positive compile-time number of
# elements (E0217); `pl.dynamic(name)` takes an identifier (E0217); a `pl.MemRef` size
# written as a number is not negative (E0207); `pl.split(mode, slot_num=)` and
# `pl.cross_core_slot(slot_num=)` do not both set the slot count (E0314);
# `pl.tile.extract`'s window lies inside its source (E0217); `pl.system.task_dummy` takes
# keywords only (E0202). Each line marked "fine" is accepted.
import pypto.language as pl

M = pl.dynamic("1m")
N = pl.dynamic("n_rows")  # fine


@pl.program
class ParserChecks:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        a: pl.Tensor[[16, 32], pl.FP32],
        n: pl.Scalar[pl.INDEX],
        out: pl.Out[pl.Tensor[[16, 32], pl.FP32]],
    ) -> pl.Tensor[[16, 32], pl.FP32]:
        t = pl.load(a, [0, 0], [16, 32])
        top = t[0:8, :]  # fine
        row = t[n, :]  # fine: an index, not a range
        moving = t[n : n + 8, :]
        open_end = t[0:n, :]
        empty = t[8:8, :]
        p: pl.Tile[[16, 32], pl.FP32, pl.MemRef(0, 0, 2048), pl.Mem.Vec] = pl.load(a, [0, 0], [16, 32])  # fine
        q: pl.Tile[[16, 32], pl.FP32, pl.MemRef(0, 0, -2048), pl.Mem.Vec] = pl.load(a, [0, 0], [16, 32])
        m = pl.load(a, [0, 0], [16, 32], target_memory=pl.Mem.Mat)
        left = pl.tile.extract(m, 0, 16, [16, 16], target_memory=pl.Mem.Left)  # fine
        past = pl.tile.extract(m, 8, 0, [16, 16], target_memory=pl.Mem.Left)
        wide = pl.tile.extract(m, 0, 24, [16, 16], target_memory=pl.Mem.Left)
        out = pl.store(top, [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        a: pl.Tensor[[16, 32], pl.FP32],
        out: pl.Out[pl.Tensor[[16, 32], pl.FP32]],
    ) -> pl.Tensor[[16, 32], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP, optimizations=[pl.split(pl.SplitMode.UP_DOWN, slot_num=2)]):  # fine
            b = pl.add(a, 1.0)
        with pl.at(level=pl.Level.CORE_GROUP, optimizations=[pl.cross_core_slot(slot_num=2), pl.split(pl.SplitMode.UP_DOWN, slot_num=4)]):
            c = pl.add(a, 2.0)
        with pl.at(level=pl.Level.CORE_GROUP, optimizations=[pl.split(pl.SplitMode.UP_DOWN, slot_num=2), pl.cross_core_slot(slot_num=2)]):
            d = pl.add(a, 3.0)
        out, tid = pl.submit(self.kernel, a, 4, out)
        after = pl.system.task_dummy(deps=[tid])  # fine
        early = pl.system.task_dummy(tid)
        return out
