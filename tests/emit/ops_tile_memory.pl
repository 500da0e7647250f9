# Tile creation, placement and shaping in their `pl.tile.*` spellings (ops.md §2.3, issue
# 11): `create_tile` in Vec and Mat, `move` between memories, `assemble` of a source into a
# target at an offset, `concat` of columns, `set_validshape` (only the new valid region is
# stored), `transpose_view`, the gathers (`gather` by flat indices, `gather_mask` with
# each of the seven patterns), `sort32` with `mrgsort` (`block_len=`) and
# `mrgsort_format1`; the cube's `matmul_acc`, `matmul_bias`, `gemv_acc` and `gemv_bias`.
# The harness build prints what `plc run` prints (tests/compile.rs).
import pypto.language as pl

R = 8
C = 16


@pl.jit.incore
def placing(
    x: pl.Tensor[[R, C], pl.FP32],
    y: pl.Tensor[[R, 8], pl.FP32],
    placed: pl.Out[pl.Tensor[[R, C], pl.FP32]],
    joined: pl.Out[pl.Tensor[[R, 24], pl.FP32]],
    cut: pl.Out[pl.Tensor[[R, C], pl.FP32]],
    flipped: pl.Out[pl.Tensor[[C, R], pl.FP32]],
    moved: pl.Out[pl.Tensor[[R, C], pl.FP32]],
):
    t = pl.load(x, [0, 0], [R, C])
    u = pl.load(y, [0, 0], [R, 8])
    # A zero tile with u's first 4 rows written at row 2, column 8.
    z = pl.tile.create_tile([R, C], dtype=pl.FP32, target_memory=pl.MemorySpace.Vec)
    z = pl.tile.muls(z, 0.0)
    z = pl.tile.assemble(z, pl.tile.slice(u, [4, 8], [0, 0]), [2, 8])
    placed = pl.store(z, [0, 0], placed)
    joined = pl.store(pl.tile.concat(t, u), [0, 0], joined)
    cut = pl.store(pl.tile.muls(t, 0.0), [0, 0], cut)
    cut = pl.store(pl.tile.set_validshape(t, 3, 5), [0, 0], cut)
    flipped = pl.store(pl.tile.transpose_view(t), [0, 0], flipped)
    l1 = pl.tile.move(t, target_memory=pl.MemorySpace.Mat)
    moved = pl.store(pl.tile.move(l1, target_memory=pl.MemorySpace.Vec), [0, 0], moved)
    return placed, joined, cut, flipped, moved


@pl.jit.incore
def gathering(
    x: pl.Tensor[[R, C], pl.FP32],
    scores: pl.Tensor[[1, 64], pl.FP32],
    picked: pl.Out[pl.Tensor[[2, R], pl.FP32]],
    evens: pl.Out[pl.Tensor[[R, 8], pl.FP32]],
    odds: pl.Out[pl.Tensor[[R, 8], pl.FP32]],
    quarters: pl.Out[pl.Tensor[[R, 16], pl.FP32]],
    every: pl.Out[pl.Tensor[[R, C], pl.FP32]],
    top: pl.Out[pl.Tensor[[1, 8], pl.FP32]],
    ids: pl.Out[pl.Tensor[[1, 8], pl.INT32]],
):
    t = pl.load(x, [0, 0], [R, C])
    # Flat indices into t, row after row: 0, 17, 34, ... is the diagonal; 127 down to 120
    # the last row backwards.
    tmp = pl.tile.create_tile([1, R], dtype=pl.INT32)
    diagonal = pl.tile.muls(pl.tile.arange(0, [1, R], dtype=pl.INT32), C + 1)
    picked = pl.store(pl.tile.gather(t, diagonal, tmp), [0, 0], picked)
    backwards = pl.tile.arange(R * C - 1, [1, R], dtype=pl.INT32, descending=True)
    picked = pl.store(pl.tile.gather(t, backwards, tmp), [1, 0], picked)
    evens = pl.store(pl.tile.gather_mask(t, pl.tile.MaskPattern.P0101), [0, 0], evens)
    odds = pl.store(pl.tile.gather_mask(t, pl.tile.MaskPattern.P1010), [0, 0], odds)
    # Columns 0, 4, 8, 12; then 1, 5, ...; 2, 6, ...; 3, 7, ... (codes 3 to 6), and all (7).
    quarters = pl.store(pl.tile.gather_mask(t, pl.tile.MaskPattern.P0001), [0, 0], quarters)
    quarters = pl.store(pl.tile.gather_mask(t, pl.tile.MaskPattern.P0010), [0, 4], quarters)
    quarters = pl.store(pl.tile.gather_mask(t, 5), [0, 8], quarters)
    quarters = pl.store(pl.tile.gather_mask(t, pl.tile.MaskPattern.P1000), [0, 12], quarters)
    every = pl.store(pl.tile.gather_mask(t, pl.tile.MaskPattern.P1111), [0, 0], every)
    # The top 8 of 64 scores as value/index pairs, largest first; then the indices of the
    # 8 smallest (the top of the negated scores).
    wide = pl.load(scores, [0, 0], [1, 64])
    idx = pl.tile.arange(0, [1, 64], dtype=pl.UINT32)
    s = pl.tile.mrgsort(pl.tile.sort32(wide, idx), block_len=64)
    top = pl.store(pl.tile.gather_mask(pl.tile.slice(s, [1, 16], [0, 0]), pl.tile.MaskPattern.P0101), [0, 0], top)
    s1 = pl.tile.mrgsort_format1(pl.tile.sort32(pl.tile.neg(wide), idx), 64)
    low = pl.tile.gather_mask(pl.tile.slice(s1, [1, 16], [0, 0]), pl.tile.MaskPattern.P1010, output_dtype=pl.INT32)
    ids = pl.store(low, [0, 0], ids)
    return picked, evens, odds, quarters, every, top, ids


@pl.jit.incore
def cube(
    a: pl.Tensor[[R, C], pl.FP32],
    b: pl.Tensor[[C, R], pl.FP32],
    bias: pl.Tensor[[1, R], pl.FP32],
    prod: pl.Out[pl.Tensor[[R, R], pl.FP32]],
    biased: pl.Out[pl.Tensor[[R, R], pl.FP32]],
    rowprod: pl.Out[pl.Tensor[[2, R], pl.FP32]],
):
    la = pl.tile.move(pl.load(a, [0, 0], [R, C], target_memory=pl.MemorySpace.Mat), target_memory=pl.MemorySpace.Left)
    rb = pl.tile.move(pl.load(b, [0, 0], [C, R], target_memory=pl.MemorySpace.Mat), target_memory=pl.MemorySpace.Right)
    bb = pl.tile.move(pl.load(bias, [0, 0], [1, R], target_memory=pl.MemorySpace.Mat), target_memory=pl.MemorySpace.Bias)
    acc = pl.tile.matmul(la, rb)
    # a @ b twice: the accumulator adds the product again.
    acc = pl.tile.matmul_acc(acc, la, rb)
    prod = pl.store(acc, [0, 0], prod)
    biased = pl.store(pl.tile.matmul_bias(la, rb, bb), [0, 0], biased)
    row = pl.tile.move(pl.load(a, [0, 0], [1, C], target_memory=pl.MemorySpace.Mat), target_memory=pl.MemorySpace.Left)
    g = pl.tile.gemv(row, rb)
    g = pl.tile.gemv_acc(g, row, rb)
    rowprod = pl.store(g, [0, 0], rowprod)
    rowprod = pl.store(pl.tile.gemv_bias(row, rb, bb), [1, 0], rowprod)
    return prod, biased, rowprod


@pl.jit
def entry(
    x: pl.Tensor[[R, C], pl.FP32],
    y: pl.Tensor[[R, 8], pl.FP32],
    b: pl.Tensor[[C, R], pl.FP32],
    bias: pl.Tensor[[1, R], pl.FP32],
    scores: pl.Tensor[[1, 64], pl.FP32],
    placed: pl.Out[pl.Tensor[[R, C], pl.FP32]],
    joined: pl.Out[pl.Tensor[[R, 24], pl.FP32]],
    cut: pl.Out[pl.Tensor[[R, C], pl.FP32]],
    flipped: pl.Out[pl.Tensor[[C, R], pl.FP32]],
    moved: pl.Out[pl.Tensor[[R, C], pl.FP32]],
    picked: pl.Out[pl.Tensor[[2, R], pl.FP32]],
    evens: pl.Out[pl.Tensor[[R, 8], pl.FP32]],
    odds: pl.Out[pl.Tensor[[R, 8], pl.FP32]],
    quarters: pl.Out[pl.Tensor[[R, 16], pl.FP32]],
    every: pl.Out[pl.Tensor[[R, C], pl.FP32]],
    top: pl.Out[pl.Tensor[[1, 8], pl.FP32]],
    ids: pl.Out[pl.Tensor[[1, 8], pl.INT32]],
    prod: pl.Out[pl.Tensor[[R, R], pl.FP32]],
    biased: pl.Out[pl.Tensor[[R, R], pl.FP32]],
    rowprod: pl.Out[pl.Tensor[[2, R], pl.FP32]],
):
    placed, joined, cut, flipped, moved = placing(x, y, placed, joined, cut, flipped, moved)
    picked, evens, odds, quarters, every, top, ids = gathering(x, scores, picked, evens, odds, quarters, every, top, ids)
    prod, biased, rowprod = cube(x, b, bias, prod, biased, rowprod)
    return placed, joined, cut, flipped, moved, picked, evens, odds, quarters, every, top, ids, prod, biased, rowprod
