# The unified mask form of the gather (PyPTO's tests): `pl.tile.gather(t,
# mask_pattern=...)` and `pl.gather(t, mask_pattern=...)` of a tile are
# `pl.tile.gather_mask(t, pattern)` (the index form `pl.tile.gather(src, indices, tmp)` takes
# no pattern). With a = 1..8: P0101 keeps columns 0, 2, 4, 6 (1 3 5 7, sum 16), P1010
# columns 1, 3, 5, 7 (2 4 6 8, sum 20).
# run: --entry picks --arg a=[1,2,3,4,5,6,7,8]
import pypto.language as pl


@pl.program
class Picks:
    @pl.function(type=pl.FunctionType.InCore)
    def picks(
        self,
        a: pl.Tensor[[1, 8], pl.FP32],
        evens: pl.Out[pl.Tensor[[1, 4], pl.FP32]],
        odds: pl.Out[pl.Tensor[[1, 4], pl.FP32]],
    ):
        t = pl.load(a, [0, 0], [1, 8])
        evens = pl.store(pl.tile.gather(t, mask_pattern=pl.tile.MaskPattern.P0101), [0, 0], evens)
        odds = pl.store(pl.gather(t, mask_pattern=pl.tile.MaskPattern.P1010), [0, 0], odds)
        return evens, odds
