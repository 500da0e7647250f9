# E0217: PyPTO's checks on the `pl.tile.*` ops (ops.md §2.3, column "checks"): integer
# operands of the bitwise ops, `not_` of INT16/UINT16, `log` and a precise `recip` of
# FP16/FP32, `subs` not of UINT8, `div` of one dtype and shape, `sort32`/`prelu` of
# FP16/FP32 with a slope of the tile's shape, `row_min` not of INT8, `col_sum`'s scratch of
# the input's dtype, `assemble` of one dtype, `arange`'s integer dtype and last extent,
# `gather_mask`'s codes 1-7 and output width, `mrgsort_format1`'s block length,
# `set_validshape` within the tile, `transpose_view` of two axes, `cmp`/`cmps`'s cmp_type
# 0..5 and broadcasting operands, `addc`/`subc` of three broadcasting tiles, integer
# positions of `read` (a float position is refused for every op's offsets and shapes).
# The second kernel: `create`/`full`/`slice` of positive extents, no atomic tile
# `assemble`, a precise `div` of floats, `gather` indices of INT32 (INT16 for 16-bit data),
# a `matmul_bias` bias of one row, `transpose`'s tmp of the input's dtype, a move into
# LeftScale of UINT8/FP8E8M0 data; each beside its accepted form.
import pypto.language as pl


@pl.jit.incore
def k(
    x: pl.Tensor[[8, 16], pl.FP32],
    i: pl.Tensor[[8, 16], pl.INT32],
    out: pl.Out[pl.Tensor[[8, 16], pl.FP32]],
):
    a = pl.load(x, [0, 0], [8, 16])
    n = pl.load(i, [0, 0], [8, 16])
    tmp = pl.tile.create_tile([8, 16], dtype=pl.FP32)
    b1 = pl.tile.and_(a, a)
    b2 = pl.tile.shls(a, 2)
    b3 = pl.tile.xor(n, a, tmp)
    u1 = pl.tile.not_(n)
    u2 = pl.tile.log(n)
    u3 = pl.tile.recip(n, high_precision=True)
    s1 = pl.tile.subs(pl.tile.cast(a, pl.UINT8), 1)
    d1 = pl.tile.div(a, n)
    d2 = pl.tile.div(a, pl.load(x, [0, 0], [1, 16]))
    o1 = pl.tile.sort32(n, n)
    p1 = pl.tile.prelu(n, n, n)
    p2 = pl.tile.prelu(a, pl.load(x, [0, 0], [8, 8]), tmp)
    r1 = pl.tile.row_min(pl.tile.cast(a, pl.INT8), pl.tile.cast(tmp, pl.INT8))
    r2 = pl.tile.col_sum(a, n)
    m1 = pl.tile.assemble(a, n, [0, 0])
    c1 = pl.tile.arange(0, [1, 16], dtype=pl.FP32)
    c2 = pl.tile.arange(0, [16, 1], dtype=pl.INT32)
    g1 = pl.tile.gather_mask(a, 8)
    g2 = pl.tile.gather_mask(a, pl.tile.MaskPattern.P0101, output_dtype=pl.INT16)
    f1 = pl.tile.mrgsort_format1(a, 32)
    v1 = pl.tile.set_validshape(a, 9, 4)
    t1 = pl.tile.transpose_view(pl.tile.reshape(a, [128]))
    q1 = pl.tile.cmp(a, a, cmp_type=6)
    q2 = pl.tile.cmps(a, 0.0, cmp_type=-1)
    q3 = pl.tile.cmp(a, pl.load(x, [0, 0], [4, 16]), cmp_type=2)
    q4 = pl.tile.cmp(a, pl.load(x, [0, 0], [1, 16]), cmp_type=5)
    h1 = pl.tile.addc(a, a, pl.load(x, [0, 0], [4, 16]))
    h2 = pl.tile.subc(a, pl.load(x, [0, 0], [1, 16]), a)
    e1 = pl.tile.read(a, [0.5, 0])
    e2 = pl.tile.read(a, [0, 1])
    out = pl.store(a, [0, 0], out)
    return out


@pl.jit.incore
def k2(
    x: pl.Tensor[[16, 16], pl.FP32],
    i: pl.Tensor[[16, 16], pl.INT32],
    out: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
):
    a = pl.load(x, [0, 0], [16, 16])
    j = pl.load(i, [0, 0], [16, 16])
    c2 = pl.tile.create([16, 0], dtype=pl.FP32)
    f1 = pl.tile.full([0, 16], pl.FP32, 0.0)
    s1 = pl.tile.slice(a, [0, 16], [0, 0])
    c3 = pl.tile.create([16, 16], dtype=pl.FP32)
    s2 = pl.tile.slice(a, [8, 16], [0, 0])
    m1 = pl.tile.assemble(a, a, [0, 0], atomic=pl.AtomicType.Add)
    d1 = pl.tile.div(j, j, high_precision=True)
    d2 = pl.tile.div(a, a, high_precision=True)
    g1 = pl.tile.gather(a, a, a)
    g2 = pl.tile.gather(a, j, a)
    l = pl.move(pl.move(a, pl.Mem.Mat), pl.Mem.Left)
    r = pl.move(pl.move(a, pl.Mem.Mat), pl.Mem.Right)
    b1 = pl.tile.matmul_bias(l, r, pl.move(pl.move(a, pl.Mem.Mat), pl.Mem.Bias))
    b2 = pl.tile.matmul_bias(l, r, pl.move(pl.move(pl.load(x, [0, 0], [1, 16]), pl.Mem.Mat), pl.Mem.Bias))
    t1 = pl.tile.transpose(a, 0, 1, j)
    t2 = pl.tile.transpose(a, 0, 1, c3)
    x1 = pl.move(pl.move(a, pl.Mem.Mat), pl.Mem.LeftScale)
    out = pl.store(a, [0, 0], out)
    return out
