# E0217: pl.aiv_shard / pl.aic_gather (ops.md §1.4) take one operand; in a pl.split_aiv
# loop they follow its mode (no split=, lane_stride=), outside one they need an integer
# split= and a tile; mode= is refused (E0203). The shard halves the split axis, the
# gather doubles it.
import pypto.language as pl


@pl.program
class SplitTransfers:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self, a: pl.Tensor[[64, 64], pl.FP32], out: pl.Out[pl.Tensor[[64, 64], pl.FP32]]
    ) -> pl.Tensor[[64, 64], pl.FP32]:
        t = pl.load(a, [0, 0], [64, 64])
        for lane in pl.split_aiv(2, mode=pl.SplitMode.UP_DOWN):
            h: pl.Tile[[32, 64], pl.FP32] = pl.aiv_shard(t)
            g: pl.Tile[[64, 64], pl.FP32] = pl.tile.aic_gather(h)
            bad = pl.aiv_shard(t, split=1)
            out = pl.store(h, [lane * 32, 0], out)
        w: pl.Tile[[64, 32], pl.FP32] = pl.tile.aiv_shard(t, split=2, lane_stride=16)
        n = pl.aiv_shard(t)
        m = pl.aiv_shard(t, mode=pl.SplitMode.UP_DOWN)
        k = pl.aic_gather(t, split=1, lane_stride=8)
        s = pl.aiv_shard(a, split=1)
        o = pl.aiv_shard(pl.load(a, [0, 0], [63, 64]), split=1)
        return out


# plc's printed form of the tensor op (the loop printed as pl.parallel) reads back.
@pl.function(type=pl.FunctionType.InCore)
def printed(a: pl.Tensor[[64, 64], pl.FP32]) -> pl.Tensor[[32, 64], pl.FP32]:
    h: pl.Tensor[[32, 64], pl.FP32] = pl.tensor.aiv_shard(a, split=1)
    return h
