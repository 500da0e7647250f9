# E0410: a scalar computed on the device from a tensor read cannot leave its region.
import pypto.language as pl


@pl.jit
def main(counts: pl.Tensor[[4], pl.INT32], out: pl.Out[pl.Tensor[[64], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        n = pl.tensor.read(counts, [0])
        t = pl.tile.full([64], dtype=pl.FP32, value=0.0)
        pl.store(t, [0], out)
    m = n * 2
    return out
