# E0229: sizes beyond the target's limits: extents of 2**31 or more (a 2**31 x 2**31
# tensor wrapped to a 1-byte allocation), six dimensions (the compiled program aborted),
# a load window of 2**32 x 2**32 or of more than 2**24 elements (rows * cols wrapped in
# the tile library and wrote past a heap buffer), in an annotation too.
import pypto.language as pl


@pl.jit
def entry(x: pl.Tensor[[64, 64], pl.FP32], out: pl.Out[pl.Tensor[[64, 64], pl.FP32]]):
    c = pl.create_tensor([2**31, 2**31], dtype=pl.FP32)
    d = pl.create_tensor([1, 2, 3, 4, 5, 6], dtype=pl.FP32)
    with pl.at(level=pl.Level.CORE_GROUP):
        t = pl.load(x, [0, 0], [2**32, 2**32])
        u = pl.load(x, [0, 0], [2**30, 4096])
        pl.store(t, [0, 0], out)
    return out


@pl.jit
def typed(x: pl.Tensor[[-4, 64], pl.FP32], y: pl.Tensor[[65536, 65536, 2], pl.FP32], z: pl.Tensor[[1, 1, 1, 1, 1, 1], pl.FP32]):
    return x
