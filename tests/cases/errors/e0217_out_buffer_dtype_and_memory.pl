# E0217: the `out=` tile buffer a tile op writes its result into has the result's shape,
# dtype and memory space (PyPTO's destination forms, `tile.matmul_into` and the others,
# check all three): an FP32 product goes to an FP32 Acc buffer, not an INT32 or a Vec one.
import pypto.language as pl


@pl.function(type=pl.FunctionType.InCore)
def k(x: pl.Tensor[[16, 32], pl.BF16], y: pl.Tensor[[32, 128], pl.BF16]):
    a = pl.load(x, [0, 0], [16, 32], target_memory=pl.Mem.Left)
    b = pl.load(y, [0, 0], [32, 128], target_memory=pl.Mem.Right)
    ints = pl.create_tile_buffers(2, [16, 128], pl.INT32, pl.Mem.Acc)
    vecs = pl.create_tile_buffers(2, [16, 128], pl.FP32, pl.Mem.Vec)
    accs = pl.create_tile_buffers(2, [16, 128], pl.FP32, pl.Mem.Acc)
    c = pl.tile.matmul(a, b, out=ints[0])
    d = pl.tile.matmul(a, b, out=vecs[0])
    e = pl.tile.matmul(a, b, out=accs[0])
