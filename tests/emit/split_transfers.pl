# The lane transfers of a `pl.split_aiv` region (ops.md §1.4): `pl.aiv_shard(x)`, the lane's
# share, and `pl.aic_gather(x)`, the whole gathered back. They type-check and lower, but a
# share needs the lane, which the op does not carry and which plc's CPU runtime, running the
# two lanes one after the other, does not give it: `plc run` (E0803) and `plc compile`
# (E0601) refuse them with that reason (tests/run.rs; docs/kernels.md).
import pypto.language as pl


@pl.jit.incore
def halves(a: pl.Tensor[[64, 64], pl.FP32], out: pl.Out[pl.Tensor[[64, 64], pl.FP32]]):
    t = pl.load(a, [0, 0], [64, 64])
    for lane in pl.split_aiv(2, mode=pl.SplitMode.UP_DOWN):
        h: pl.Tile[[32, 64], pl.FP32] = pl.aiv_shard(t)
        out = pl.store(h, [lane * 32, 0], out)
    return out


@pl.jit
def entry(a: pl.Tensor[[64, 64], pl.FP32], out: pl.Out[pl.Tensor[[64, 64], pl.FP32]]):
    out = halves(a, out)
    return out
