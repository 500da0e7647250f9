# E0229: negative constant extents, offsets and indices (their C++ narrowed -1 into a
# uint32_t and failed to build; plc run refused them only when it ran).
import pypto.language as pl

N = 64


@pl.jit
def entry(x: pl.Tensor[[N, N], pl.FP32], out: pl.Out[pl.Tensor[[N, N], pl.FP32]]):
    v = pl.slice(x, [4, 4], [-1, 0])
    r = pl.tensor.read(x, [-1, 0])
    c = pl.create_tensor([-4, N], dtype=pl.FP32)
    with pl.at(level=pl.Level.CORE_GROUP):
        t = pl.load(v, [0, 0], [4, 4])
        pl.store(t, [0, 0], out)
    return out
