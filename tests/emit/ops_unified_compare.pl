# The unified and promoted bitwise, compare, select and sort ops of ops.md §2.1 on tiles
# (issue 11): `and_`/`or_` of two tiles and with a scalar (dispatched to `ands`/`ors`),
# `ors`, `not_` (of INT16: PyPTO takes INT16 and UINT16 only), `shl`/`shr`; `cmps` into
# PyPTO's packed UINT8 mask, which `sel` and `sels` read; `sort32` within blocks of 32 and `mrgsort` of one source with `block_len` (the
# form of several sources is tests/emit/mrgsort_format2.pl). The harness build prints what
# `plc run` prints (tests/compile.rs); tests/run.rs checks the values.
import pypto.language as pl

R = 4
C = 16


@pl.jit.incore
def bits(
    i: pl.Tensor[[R, C], pl.INT32],
    j: pl.Tensor[[R, C], pl.INT32],
    out: pl.Out[pl.Tensor[[7 * R, C], pl.INT32]],
):
    a = pl.load(i, [0, 0], [R, C])
    b = pl.load(j, [0, 0], [R, C])
    out = pl.store(pl.and_(a, b), [0, 0], out)
    out = pl.store(pl.or_(a, b), [R, 0], out)
    out = pl.store(pl.ors(a, 5), [2 * R, 0], out)
    out = pl.store(pl.cast(pl.not_(pl.cast(a, pl.INT16)), pl.INT32), [3 * R, 0], out)
    amount = pl.and_(b, 3)
    out = pl.store(pl.shl(a, amount), [4 * R, 0], out)
    out = pl.store(pl.shr(a, amount), [5 * R, 0], out)
    out = pl.store(pl.or_(a, 16), [6 * R, 0], out)
    return out


@pl.jit.incore
def select(
    x: pl.Tensor[[2, C], pl.FP32],
    mask_out: pl.Out[pl.Tensor[[2, 2], pl.UINT8]],
    picked: pl.Out[pl.Tensor[[2, C], pl.FP32]],
    kept: pl.Out[pl.Tensor[[2, C], pl.FP32]],
):
    t = pl.load(x, [0, 0], [2, C])
    tmp = pl.create_tile([2, C], dtype=pl.FP32)
    mask = pl.cmps(t, 0.25, cmp_type=5)
    mask_out = pl.store(mask, [0, 0], mask_out)
    picked = pl.store(pl.sel(mask, t, pl.neg(t), tmp), [0, 0], picked)
    kept = pl.store(pl.sels(mask, t, tmp, -1.0), [0, 0], kept)
    return mask_out, picked, kept


@pl.jit.incore
def sorting(
    s: pl.Tensor[[2, 64], pl.FP32],
    whole: pl.Out[pl.Tensor[[1, 128], pl.FP32]],
    merged: pl.Out[pl.Tensor[[2, 128], pl.FP32]],
):
    ids = pl.tile.arange(0, [1, 64], dtype=pl.UINT32)
    first = pl.sort32(pl.load(s, [0, 0], [1, 64]), ids)
    whole = pl.store(pl.mrgsort(first, block_len=64), [0, 0], whole)
    # The two runs of 64 positions (32 pairs) sort32 leaves in each row merged.
    for r in pl.range(2):
        row = pl.sort32(pl.load(s, [r, 0], [1, 64]), ids)
        merged = pl.store(pl.mrgsort(row, block_len=64), [r, 0], merged)
    return whole, merged


@pl.jit
def entry(
    i: pl.Tensor[[R, C], pl.INT32],
    j: pl.Tensor[[R, C], pl.INT32],
    x: pl.Tensor[[2, C], pl.FP32],
    s: pl.Tensor[[2, 64], pl.FP32],
    out: pl.Out[pl.Tensor[[7 * R, C], pl.INT32]],
    mask_out: pl.Out[pl.Tensor[[2, 2], pl.UINT8]],
    picked: pl.Out[pl.Tensor[[2, C], pl.FP32]],
    kept: pl.Out[pl.Tensor[[2, C], pl.FP32]],
    whole: pl.Out[pl.Tensor[[1, 128], pl.FP32]],
    merged: pl.Out[pl.Tensor[[2, 128], pl.FP32]],
):
    out = bits(i, j, out)
    mask_out, picked, kept = select(x, mask_out, picked, kept)
    whole, merged = sorting(s, whole, merged)
    return out, mask_out, picked, kept, whole, merged
