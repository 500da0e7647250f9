# The gather, scatter and batch matmul ops PyPTO has and plc lacked (issue 11, ops.md §2):
# `batch_matmul` (batch axes broadcast), `batch_matmul_acc` (with newer PyPTO's `init_cond`:
# the product alone when true); `gatherb` (32-byte blocks by
# byte offset, also read as UINT32 bits); `mgather` by rows and by elements, out of range
# wrapped; `mscatter` into a tensor at flat positions; `gather_row` of tensor windows into
# a tile and an L1 tensor (`create_l1`), transposed or not; `paged_gather` of a paged pool
# through a block table. Indices are computed in the kernels, so every run picks the same
# elements. The kernels compile against the tile library and print what `plc run` prints
# (tests/compile.rs); tests/run.rs checks the values by hand.
import pypto.language as pl

B = 2
M = 4
K = 8
N = 4
R = 8
C = 16


@pl.jit.incore
def products(
    a: pl.Tensor[[B, M, K], pl.FP32],
    b: pl.Tensor[[B, K, N], pl.FP32],
    w: pl.Tensor[[K, N], pl.FP32],
    prod: pl.Out[pl.Tensor[[B, M, N], pl.FP32]],
    accd: pl.Out[pl.Tensor[[B, M, N], pl.FP32]],
):
    ta = pl.load(a, [0, 0, 0], [B, M, K], target_memory=pl.MemorySpace.Mat)
    tb = pl.load(b, [0, 0, 0], [B, K, N], target_memory=pl.MemorySpace.Mat)
    tw = pl.load(w, [0, 0], [K, N], target_memory=pl.MemorySpace.Mat)
    la = pl.move(ta, target_memory=pl.MemorySpace.Left)
    rb = pl.move(tb, target_memory=pl.MemorySpace.Right)
    rw = pl.move(tw, target_memory=pl.MemorySpace.Right)
    p = pl.batch_matmul(la, rb)
    prod = pl.store(p, [0, 0, 0], prod)
    q = pl.tile.batch_matmul(la, rw)
    q = pl.tile.batch_matmul_acc(q, la, rb, True)
    q = pl.tile.batch_matmul_acc(q, la, rb)
    accd = pl.store(q, [0, 0, 0], accd)
    return prod, accd


@pl.jit.incore
def gathers(
    x: pl.Tensor[[R, C], pl.FP32],
    blocks: pl.Out[pl.Tensor[[2, 64], pl.FP32]],
    rows: pl.Out[pl.Tensor[[4, C], pl.FP32]],
    elems: pl.Out[pl.Tensor[[2, 8], pl.FP32]],
    bits: pl.Out[pl.Tensor[[2, 64], pl.UINT32]],
):
    t = pl.load(x, [0, 0], [R, C])
    # Byte offsets of 32-byte blocks (8 FP32 elements), in reverse order: 480, 448, ...
    off = pl.tile.adds(pl.tile.muls(pl.tile.reshape(pl.tile.ci(0, [1, 16], dtype=pl.INT32), [2, 8]), -32), 480)
    offsets = pl.tile.cast(off, target_type=pl.UINT32)
    blocks = pl.store(pl.gatherb(t, offsets), [0, 0], blocks)
    # The same blocks, their bits read as UINT32.
    bits = pl.store(pl.tile.gatherb(t, offsets, output_dtype=pl.UINT32), [0, 0], bits)
    # Rows 7, 5, 3, 1 of x, then elements 0, 3, 6, ... wrapped past the end.
    ridx = pl.tile.ci(7, [1, 4], dtype=pl.INT32, descending=True)
    ridx = pl.tile.adds(pl.tile.muls(ridx, 2), -7)
    rows = pl.store(pl.mgather(x, ridx), [0, 0], rows)
    eidx = pl.tile.muls(pl.tile.reshape(pl.tile.ci(0, [1, 16], dtype=pl.INT32), [2, 8]), 9)
    elems = pl.store(pl.tile.mgather(x, eidx, "elem", gather_oob="wrap"), [0, 0], elems)
    return blocks, rows, elems, bits


@pl.jit.incore
def scatters(
    x: pl.Tensor[[R, C], pl.FP32],
    out: pl.InOut[pl.Tensor[[R, C], pl.FP32]],
    win: pl.Out[pl.Tensor[[C, R], pl.FP32]],
    l1: pl.Out[pl.Tensor[[4, C], pl.FP32]],
):
    t = pl.load(x, [0, 0], [2, 8])
    # Element (r, c) of the window goes to position 7 * (8 * r + c) + 3 of `out`.
    idx = pl.tile.adds(pl.tile.muls(pl.tile.reshape(pl.tile.ci(0, [1, 16], dtype=pl.INT32), [2, 8]), 7), 3)
    out = pl.mscatter(t, idx, out)
    # The same positions again, in the op's long spelling: the values do not change.
    out = pl.tile.mscatter(t, idx, out)
    acc = pl.tile.full([C, R], dtype=pl.FP32, value=0.0)
    acc = pl.gather_row(acc, x, [0, 2], [5, 0], [1, C], transpose=True)
    acc = pl.tile.gather_row(acc, x, [3, 4], [1, 2], [2, 4], valid_shape=[1, 3])
    win = pl.store(acc, [0, 0], win)
    stage = pl.create_l1([4, C], pl.FP32)
    spare = pl.tensor.create_l1([4, C], pl.FP32)
    stage = pl.tensor.gather_row(spare, x, [0, 0], [7, 0], [1, C])
    stage = pl.gather_row(stage, x, [0, 0], [6, 0], [1, C])
    stage = pl.tensor.gather_row(stage, x, [2, 0], [0, 0], [2, C])
    l1 = pl.assemble(l1, stage, [0, 0])
    return out, win, l1


@pl.jit.incore
def paged(
    pool: pl.Tensor[[R, C], pl.FP32],
    pages: pl.Out[pl.Tensor[[4, 8], pl.FP32]],
    columns: pl.Out[pl.Tensor[[8, 4], pl.FP32]],
):
    # Blocks of 2 rows; logical block k is physical block 3 - k.
    table = pl.create_tensor([4], dtype=pl.INT32)
    for k in pl.range(4):
        pl.tensor.write(table, [k], 3 - k)
    idx = pl.create_tensor([1, 3], dtype=pl.INT32)
    pl.tensor.write(idx, [0, 0], 0)
    pl.tensor.write(idx, [0, 1], 3)
    pl.tensor.write(idx, [0, 2], 6)
    g = pl.paged_gather(pool, idx, table, 2, 8, 4, col_off=4, space=pl.MemorySpace.Vec)
    pages = pl.assemble(pages, g, [0, 0])
    h = pl.tensor.paged_gather(pool, idx, table, 2, 8, 4, is_trans=True)
    columns = pl.assemble(columns, h, [0, 0])
    return pages, columns


@pl.jit
def entry(
    a: pl.Tensor[[B, M, K], pl.FP32],
    b: pl.Tensor[[B, K, N], pl.FP32],
    w: pl.Tensor[[K, N], pl.FP32],
    x: pl.Tensor[[R, C], pl.FP32],
    prod: pl.Out[pl.Tensor[[B, M, N], pl.FP32]],
    accd: pl.Out[pl.Tensor[[B, M, N], pl.FP32]],
    blocks: pl.Out[pl.Tensor[[2, 64], pl.FP32]],
    rows: pl.Out[pl.Tensor[[4, C], pl.FP32]],
    elems: pl.Out[pl.Tensor[[2, 8], pl.FP32]],
    bits: pl.Out[pl.Tensor[[2, 64], pl.UINT32]],
    out: pl.InOut[pl.Tensor[[R, C], pl.FP32]],
    win: pl.Out[pl.Tensor[[C, R], pl.FP32]],
    l1: pl.Out[pl.Tensor[[4, C], pl.FP32]],
    pages: pl.Out[pl.Tensor[[4, 8], pl.FP32]],
    columns: pl.Out[pl.Tensor[[8, 4], pl.FP32]],
):
    prod, accd = products(a, b, w, prod, accd)
    blocks, rows, elems, bits = gathers(x, blocks, rows, elems, bits)
    out, win, l1 = scatters(x, out, win, l1)
    pages, columns = paged(x, pages, columns)
    return prod, accd, blocks, rows, elems, bits, out, win, l1, pages, columns
