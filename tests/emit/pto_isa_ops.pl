# Ops of PTO-ISA kernels (issue 13): row reductions into one-column tiles (column-major,
# with a scratch tile), column reductions into one-row tiles, over a valid region cut by
# the tensor's end; the row and column expansions of softmax; casts (TCVT) with a
# rounding mode; a compare into a packed mask; bitwise ops of INT32 tiles and scalars; a
# matmul over K in chunks, its accumulator carried through a loop. tests/simpler.rs runs
# `reduce` on a2a3sim with `--kernels pto-isa` and compares it with `plc run`.
import pypto.language as pl


@pl.jit.incore
def reduce_rows(
    x: pl.Tensor[[40, 128], pl.FP32],
    sums: pl.Out[pl.Tensor[[40, 1], pl.FP32]],
    maxes: pl.Out[pl.Tensor[[40, 1], pl.FP32]],
    mins: pl.Out[pl.Tensor[[40, 1], pl.FP32]],
):
    # A 48-row window of a 40-row tensor: the last 8 rows are outside, not reduced.
    t = pl.load(x, [0, 0], [48, 128])
    pl.store(pl.row_sum(t), [0, 0], sums)
    pl.store(pl.row_max(t), [0, 0], maxes)
    pl.store(pl.row_min(t), [0, 0], mins)
    return sums, maxes, mins


@pl.jit.incore
def reduce_cols(
    x: pl.Tensor[[40, 128], pl.FP32],
    col_sums: pl.Out[pl.Tensor[[1, 128], pl.FP32]],
    col_maxes: pl.Out[pl.Tensor[[1, 128], pl.FP32]],
    col_mins: pl.Out[pl.Tensor[[1, 128], pl.FP32]],
):
    t = pl.load(x, [0, 0], [48, 128])
    pl.store(pl.col_sum(t), [0, 0], col_sums)
    pl.store(pl.col_max(t), [0, 0], col_maxes)
    pl.store(pl.col_min(t), [0, 0], col_mins)
    return col_sums, col_maxes, col_mins


@pl.jit.incore
def normalise(x: pl.Tensor[[40, 128], pl.FP32], out: pl.Out[pl.Tensor[[40, 128], pl.FP32]]):
    # Softmax's steps: each row minus its maximum, exponentiated, divided by its sum; then
    # each column minus its minimum.
    t = pl.load(x, [0, 0], [48, 128])
    e = pl.row_expand_expdif(t, pl.row_max(t))
    p = pl.row_expand_div(e, pl.row_sum(e))
    q = pl.col_expand_sub(p, pl.col_min(p))
    pl.store(q, [0, 0], out)
    return out


@pl.jit.incore
def casts(
    x: pl.Tensor[[40, 128], pl.FP32],
    floors: pl.Out[pl.Tensor[[40, 128], pl.INT32]],
    halves: pl.Out[pl.Tensor[[40, 128], pl.FP16]],
):
    t = pl.mul(pl.load(x, [0, 0], [48, 128]), 10.0)
    pl.store(pl.cast(t, pl.INT32, mode="floor"), [0, 0], floors)
    pl.store(pl.cast(t, pl.FP16), [0, 0], halves)
    return floors, halves


@pl.jit.incore
def compare(x: pl.Tensor[[40, 128], pl.FP32], y: pl.Tensor[[40, 128], pl.FP32], mask: pl.Out[pl.Tensor[[40, 16], pl.UINT8]]):
    # The packed mask of x < y (code 2): a tile of rows of 32 bytes (16 padded to 32), of
    # which the 16 valid bytes of each row are stored.
    a = pl.load(x, [0, 0], [40, 128])
    b = pl.load(y, [0, 0], [40, 128])
    pl.store(pl.cmp(a, b, 2), [0, 0], mask)
    return mask


@pl.jit.incore
def bitwise(
    i: pl.Tensor[[16, 64], pl.INT32],
    j: pl.Tensor[[16, 64], pl.INT32],
    bits: pl.Out[pl.Tensor[[16, 64], pl.INT32]],
):
    a = pl.load(i, [0, 0], [16, 64])
    b = pl.load(j, [0, 0], [16, 64])
    # TXOR, TANDS, TSHLS, TSHRS, TXORS (the XORs with a scratch tile).
    tmp = pl.create_tile([16, 64], dtype=pl.INT32)
    c = pl.shrs(pl.shls(pl.ands(pl.xor(a, b, tmp), 1023), 2), 1)
    pl.store(pl.xors(c, 85, tmp), [0, 0], bits)
    return bits


@pl.jit.incore
def k_chunks(
    a: pl.Tensor[[64, 128], pl.FP32],
    b: pl.Tensor[[128, 64], pl.FP32],
    prod: pl.Out[pl.Tensor[[64, 64], pl.FP32]],
):
    # a @ b over K in chunks of 32: the first chunk's matmul, then `matmul_acc` into the
    # accumulator the loop carries (in place in L0C).
    a0 = pl.load(a, [0, 0], [64, 32], target_memory=pl.MemorySpace.Mat)
    b0 = pl.load(b, [0, 0], [32, 64], target_memory=pl.MemorySpace.Mat)
    acc = pl.matmul(pl.move(a0, target_memory=pl.MemorySpace.Left), pl.move(b0, target_memory=pl.MemorySpace.Right))
    for k in pl.range(1, 4):
        ak = pl.load(a, [0, k * 32], [64, 32], target_memory=pl.MemorySpace.Mat)
        bk = pl.load(b, [k * 32, 0], [32, 64], target_memory=pl.MemorySpace.Mat)
        al = pl.move(ak, target_memory=pl.MemorySpace.Left)
        bl = pl.move(bk, target_memory=pl.MemorySpace.Right)
        acc = pl.matmul_acc(acc, al, bl)
    pl.store(acc, [0, 0], prod)
    return prod


@pl.jit
def reduce(
    x: pl.Tensor[[40, 128], pl.FP32],
    sums: pl.Out[pl.Tensor[[40, 1], pl.FP32]],
    maxes: pl.Out[pl.Tensor[[40, 1], pl.FP32]],
    mins: pl.Out[pl.Tensor[[40, 1], pl.FP32]],
    col_sums: pl.Out[pl.Tensor[[1, 128], pl.FP32]],
    col_maxes: pl.Out[pl.Tensor[[1, 128], pl.FP32]],
    col_mins: pl.Out[pl.Tensor[[1, 128], pl.FP32]],
    normalised: pl.Out[pl.Tensor[[40, 128], pl.FP32]],
    floors: pl.Out[pl.Tensor[[40, 128], pl.INT32]],
    halves: pl.Out[pl.Tensor[[40, 128], pl.FP16]],
    y: pl.Tensor[[40, 128], pl.FP32],
    mask: pl.Out[pl.Tensor[[40, 16], pl.UINT8]],
    i: pl.Tensor[[16, 64], pl.INT32],
    j: pl.Tensor[[16, 64], pl.INT32],
    bits: pl.Out[pl.Tensor[[16, 64], pl.INT32]],
    a: pl.Tensor[[64, 128], pl.FP32],
    b: pl.Tensor[[128, 64], pl.FP32],
    prod: pl.Out[pl.Tensor[[64, 64], pl.FP32]],
):
    prod = k_chunks(a, b, prod)
    bits = bitwise(i, j, bits)
    normalised = normalise(x, normalised)
    mask = compare(x, y, mask)
    floors, halves = casts(x, floors, halves)
    sums, maxes, mins = reduce_rows(x, sums, maxes, mins)
    col_sums, col_maxes, col_mins = reduce_cols(x, col_sums, col_maxes, col_mins)
    return sums, maxes, mins, col_sums, col_maxes, col_mins, normalised, floors, halves, mask, bits, prod
