# `set_validshape` of a tile and of a tensor (ops.md §2.2, §2.3): the same mistake gets the
# same message from both rows (E0217): an operand that is not 2-D, an extent beyond its
# axis, a negative extent.
import pypto.language as pl


@pl.jit.incore
def kernel(
    x: pl.Tensor[[4, 8], pl.FP32],
    c: pl.Tensor[[2, 4, 8], pl.FP32],
    out: pl.Out[pl.Tensor[[4, 8], pl.FP32]],
):
    t = pl.load(x, [0, 0], [4, 8])
    u = pl.load(c, [0, 0, 0], [2, 4, 8])
    a = pl.tile.set_validshape(u, 2, 2)
    b = pl.tensor.set_validshape(c, 2, 2)
    d = pl.tile.set_validshape(t, 5, 8)
    e = pl.tensor.set_validshape(x, 5, 8)
    f = pl.tile.set_validshape(t, 4, -1)
    g = pl.tensor.set_validshape(x, 4, -1)
    out = pl.store(t, [0, 0], out)
    return out
