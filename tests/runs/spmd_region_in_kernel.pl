# A `pl.spmd(n)` region kept inside a kernel (the outliners leave it there) runs its body
# once per block index 0..n-1, in order, with `pl.tile.get_block_idx()` the index and
# `get_block_num()` n while it runs, and the task's own block (0 of 1) before and after.
# What the body defines is the last block's value after the region. `halves` is the loop
# form (whose body is a core-group region); `rows` the `with` form, scaling each pair of
# rows by its block index plus the block count and copying, after the region, the rows of
# the last block; `nested` a region in a region (2 x 3 blocks, the inner index wins).
# The compiled harness prints the same lines (tests/compile.rs).
# run: --entry halves
# run: --entry rows
# run: --entry nested
import pypto.language as pl

R = 8
C = 32


@pl.program
class KernelBlocks:
    @pl.function(type=pl.FunctionType.InCore)
    def doubled(
        self, src: pl.Tensor[[R, C], pl.FP32], dst: pl.Out[pl.Tensor[[R, C], pl.FP32]]
    ) -> pl.Tensor[[R, C], pl.FP32]:
        for blk in pl.spmd(2, name_hint="halves"):
            part = pl.load(src, [blk * 4, 0], [4, C])
            dst = pl.store(pl.add(part, part), [blk * 4, 0], dst)
        return dst

    @pl.function(type=pl.FunctionType.AIV)
    def scaled_rows(
        self,
        src: pl.Tensor[[R, C], pl.FP32],
        dst: pl.Out[pl.Tensor[[R, C], pl.FP32]],
        tail: pl.Out[pl.Tensor[[2, C], pl.FP32]],
    ) -> tuple[pl.Tensor[[R, C], pl.FP32], pl.Tensor[[2, C], pl.FP32]]:
        before = pl.tile.get_block_num()
        with pl.spmd(4):
            blk = pl.tile.get_block_idx()
            factor = pl.cast(blk + pl.tile.get_block_num() + before, pl.FP32)
            row = pl.load(src, [blk * 2, 0], [2, C])
            dst = pl.store(pl.tile.muls(row, factor), [blk * 2, 0], dst)
        last = pl.load(src, [blk * 2 + pl.tile.get_block_idx(), 0], [2, C])
        tail = pl.store(pl.tile.muls(last, factor), [0, 0], tail)
        return dst, tail

    @pl.function(type=pl.FunctionType.AIV)
    def grid(
        self, src: pl.Tensor[[R, C], pl.FP32], dst: pl.Out[pl.Tensor[[R, C], pl.FP32]]
    ) -> pl.Tensor[[R, C], pl.FP32]:
        with pl.spmd(2):
            outer = pl.tile.get_block_idx()
            with pl.spmd(3):
                inner = pl.tile.get_block_idx()
                row = pl.load(src, [outer * 3 + inner, 0], [1, C])
                scale = pl.cast(pl.tile.get_block_num() * 10 + inner, pl.FP32)
                dst = pl.store(pl.tile.muls(row, scale), [outer * 3 + inner, 0], dst)
            after = pl.tile.get_block_num()
            row2 = pl.load(src, [6 + outer, 0], [1, C])
            dst = pl.store(pl.tile.muls(row2, pl.cast(after + inner, pl.FP32)), [6 + outer, 0], dst)
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def halves(
        self, src: pl.Tensor[[R, C], pl.FP32], dst: pl.Out[pl.Tensor[[R, C], pl.FP32]]
    ) -> pl.Tensor[[R, C], pl.FP32]:
        dst = self.doubled(src, dst)
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def rows(
        self,
        src: pl.Tensor[[R, C], pl.FP32],
        dst: pl.Out[pl.Tensor[[R, C], pl.FP32]],
        tail: pl.Out[pl.Tensor[[2, C], pl.FP32]],
    ) -> tuple[pl.Tensor[[R, C], pl.FP32], pl.Tensor[[2, C], pl.FP32]]:
        dst, tail = self.scaled_rows(src, dst, tail)
        return dst, tail

    @pl.function(type=pl.FunctionType.Orchestration)
    def nested(
        self, src: pl.Tensor[[R, C], pl.FP32], dst: pl.Out[pl.Tensor[[R, C], pl.FP32]]
    ) -> pl.Tensor[[R, C], pl.FP32]:
        dst = self.grid(src, dst)
        return dst
