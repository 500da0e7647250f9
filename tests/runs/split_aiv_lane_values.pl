# Values first bound inside a `pl.split_aiv` region and read after it (issue 11): PyPTO's
# region is a scope, what it binds stays visible after it. plc runs the two lanes one after
# the other, so after the region a value is the one of the last lane, lane 1. With a =
# 1..16 row by row: `row` is a's row 1 (lane 1 loads row `lane`) and `k` is 2, so `scaled`
# is [10, 12, 14, 16] (sum 52); the second region reads `k` in each lane: lane 0 adds 2 to
# a[2, 0:2] = [9, 10], lane 1 to a[2, 2:4] = [11, 12], so `shifted` is [11, 12, 13, 14]
# (sum 50).
# run: --entry lanes --arg a=[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16]
# run: --entry lanes --arg a=4x4
import pypto.language as pl


@pl.program
class LaneValues:
    @pl.function(type=pl.FunctionType.InCore)
    def lanes(
        self,
        a: pl.Tensor[[4, 4], pl.FP32],
        scaled: pl.Out[pl.Tensor[[1, 4], pl.FP32]],
        shifted: pl.Out[pl.Tensor[[1, 4], pl.FP32]],
    ):
        for lane in pl.split_aiv(2, mode=pl.SplitMode.NONE):
            row: pl.Tile[[1, 4], pl.FP32] = pl.load(a, [lane, 0], [1, 4])
            k = lane + 1
        scaled = pl.store(pl.tile.muls(row, pl.cast(k, pl.FP32)), [0, 0], scaled)
        for aiv_id in pl.split_aiv(2, mode=pl.SplitMode.LEFT_RIGHT):
            part: pl.Tile[[1, 2], pl.FP32] = pl.load(a, [2, aiv_id * 2], [1, 2])
            shifted = pl.store(pl.tile.adds(part, pl.cast(k, pl.FP32)), [0, aiv_id * 2], shifted)
        return scaled, shifted
