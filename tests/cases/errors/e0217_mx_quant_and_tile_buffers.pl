# E0217: PyPTO's checks of MX quantization (`pl.quant_mx`: a 2-D FP16/BF16/FP32 source of
# static extents, K a multiple of 64, M a multiple of 16 on the A side and N of 32 on the
# B side, group_axis 0 or 1, FP8E4M3FN data), of the MX layout a scale load names, and of
# explicit tile buffers (a positive count; `out=` a buffer of the result's shape).
import pypto.language as pl


@pl.function(type=pl.FunctionType.InCore)
def k(
    x: pl.Tensor[[16, 64], pl.FP32],
    narrow: pl.Tensor[[16, 32], pl.FP32],
    ints: pl.Tensor[[16, 64], pl.INT32],
    s: pl.Tensor[[16, 2], pl.FP8E8M0],
):
    t = pl.load(x, [0, 0], [16, 64])
    a, b = pl.quant_mx(pl.load(narrow, [0, 0], [16, 32]), group_axis=1)
    c, d = pl.quant_mx(pl.load(ints, [0, 0], [16, 64]))
    e, f = pl.quant_mx(t, group_axis=2)
    g, h = pl.quant_mx(t, group_axis=0)
    i, j = pl.quant_mx(t, dtype=pl.FP8E5M2)
    m = pl.load(s, [0, 0], [16, 2], target_memory=pl.Mem.Mat, mx_layout="mx_a_nd")
    n = pl.create_tile_buffers(0, [16, 64], pl.FP32, pl.Mem.Vec)
    o = pl.create_tile_buffers(2, [16, 64], pl.FP32, pl.Mem.Vec)
    p = pl.tile.add(t, t)
    q = pl.tile.extract(t, 0, 0, [16, 32], out=o[1])
