# `pl.system.cacheinvalid(tensor, shapes, offsets)`: the shapes and offsets given have one
# integer per dimension of the tensor (ops.md §2.4); plc accepted any list.
import pypto.language as pl

N = 16


@pl.jit.incore
def kernel(x: pl.Tensor[[N, N], pl.FP32], out: pl.Out[pl.Tensor[[N, N], pl.FP32]]):
    pl.system.cacheinvalid(x, [N], [0, 0])
    pl.system.cacheinvalid(x, [N, N], [0, 0, 0])
    pl.system.cacheinvalid(x, [N, N], [0.5, 0])
    pl.system.cacheinvalid(x, [N, 2.0], [0, 0])
    pl.system.cacheinvalid(x, [N, N], [0, 0])
    pl.system.cacheinvalid()
    t = pl.load(x, [0, 0], [N, N])
    pl.store(t, [0, 0], out)
