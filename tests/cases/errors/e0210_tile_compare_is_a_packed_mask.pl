# E0210: a tile comparison gives PyPTO's packed UINT8 mask (one bit per column, rows padded
# to 32 bytes), not a tile of the operands' dtype.
import pypto.language as pl


@pl.program
class Bad:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, x: pl.Tensor[[16, 64], pl.FP32], y: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        t = pl.load(x, [0, 0], [16, 64])
        ok: pl.Tile[[16, 32], pl.UINT8] = pl.tile.cmp(t, t, cmp_type=0)
        bad: pl.Tile[[16, 64], pl.FP32] = pl.tile.cmps(t, 0.0, cmp_type=4)
        y = pl.store(t, [0, 0], y)
        return y
