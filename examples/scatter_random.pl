# The scatters, counter-based random numbers and reinterpreting views PyPTO has and plc
# lacked (issue 11): `tile.scatter` (flat destination indices), `scatter_mask` (the columns
# a mask pattern selects), `scatter_update` (whole rows, in both of PyPTO's argument
# orders), `tensor.scatter` (column indices per row), `random` (Philox4x32, laid out as
# PTO-ISA's TRANDOM), `reinterpret_view` (the same bytes as another dtype), and
# `pl.system.task_dummy` joining two tasks' completion, `pl.task_id_of` naming the task that
# wrote a tensor. The kernels compile against the
# tile library and print what `plc run` prints (tests/compile.rs).
import pypto.language as pl

R = 4
C = 16


@pl.jit.incore
def tile_scatters(
    x: pl.Tensor[[R, C], pl.FP32],
    flat: pl.Out[pl.Tensor[[R, C], pl.FP32]],
    spread: pl.Out[pl.Tensor[[R, 4 * C], pl.FP32]],
    rows: pl.Out[pl.Tensor[[2 * R, C], pl.FP32]],
):
    t = pl.load(x, [0, 0], [R, C])
    # Reversed flat positions: the last element first (TCI fills one row: a row, reshaped).
    rev = pl.tile.reshape(pl.tile.ci(R * C - 1, [1, R * C], dtype=pl.INT32, descending=True), [R, C])
    dst = pl.tile.full([R, C], dtype=pl.FP32, value=0.0)
    dst = pl.tile.scatter(dst, pl.tile.muls(t, 2.0), rev)
    flat = pl.store(dst, [0, 0], flat)
    wide = pl.tile.full([R, 2 * C], dtype=pl.FP32, value=-1.0)
    wide = pl.tile.scatter_mask(wide, t, pl.tile.MaskPattern.P1010)
    spread = pl.store(wide, [0, 0], spread)
    quad = pl.tile.full([R, 2 * C], dtype=pl.FP32, value=0.5)
    quad = pl.tile.scatter_mask(quad, pl.tile.slice(t, [R, C // 2], [0, 0]), 6)
    spread = pl.store(quad, [0, 2 * C], spread)
    every = pl.tile.ci(0, [1, R], dtype=pl.INT32)
    every = pl.tile.muls(every, 2)
    big = pl.tile.full([2 * R, C], dtype=pl.FP32, value=7.0)
    big = pl.scatter_update(big, -2, every, t)
    big = pl.tile.scatter_update(big, pl.tile.adds(every, 1), pl.tile.neg(t), dim=-2)
    rows = pl.store(big, [0, 0], rows)
    return flat, spread, rows


@pl.jit.incore
def tensor_scatters(
    x: pl.Tensor[[R, C], pl.FP32],
    half: pl.Tensor[[R, C // 2], pl.FP32],
    cols: pl.Out[pl.Tensor[[R, C], pl.FP32]],
    masked: pl.Out[pl.Tensor[[R, 2 * C], pl.FP32]],
    rows: pl.Out[pl.Tensor[[R, C], pl.FP32]],
):
    # Column k of each row of `half` goes to column 2k + 1.
    idx = pl.tensor.reshape(pl.tensor.ci(0, [1, R * (C // 2)], dtype=pl.INT32), [R, C // 2])
    idx = pl.tensor.adds(pl.tensor.muls(pl.tensor.fmods(idx, C // 2), 2), 1)
    cols = pl.assemble(cols, pl.tensor.scatter(x, dim=-1, index=idx, src=half), [0, 0])
    cols = pl.assemble(cols, pl.scatter(x, dim=-1, index=idx, src=half), [0, 0])
    wide = pl.tensor.full([R, 2 * C], dtype=pl.FP32, value=3.0)
    masked = pl.assemble(masked, pl.scatter(x, mask_pattern=pl.tile.MaskPattern.P0101, dst=wide), [0, 0])
    order = pl.tensor.ci(R - 1, [1, R], dtype=pl.INT32, descending=True)
    rows = pl.assemble(rows, pl.tensor.scatter_update(x, order, x, dim=-2), [0, 0])
    return cols, masked, rows


@pl.jit.incore
def randoms(
    draws: pl.Out[pl.Tensor[[R, C], pl.UINT32]],
    signed: pl.Out[pl.Tensor[[R, C], pl.INT32]],
):
    u = pl.tile.random(1, 2, 3, 4, 5, 6, [R, C])
    draws = pl.store(u, [0, 0], draws)
    s = pl.tile.random(7, 8, 0, 0, 0, 0, [R, C], valid_shape=[R, C // 2], dtype=pl.INT32, rounds=7)
    signed = pl.store(pl.tile.fillpad(s), [0, 0], signed)
    return draws, signed


@pl.jit.incore
def views(
    x: pl.Tensor[[R, C], pl.FP32],
    bits: pl.Out[pl.Tensor[[R, C], pl.INT32]],
    halves: pl.Out[pl.Tensor[[R, C], pl.INT16]],
    packed: pl.Out[pl.Tensor[[R, C // 2], pl.INT32]],
):
    t = pl.load(x, [0, 0], [R, C])
    bits = pl.store(pl.reinterpret_view(t, pl.INT32), [0, 0], bits)
    h = pl.tile.cast(t, target_type=pl.FP16)
    halves = pl.store(pl.tile.reinterpret_view(h, pl.INT16), [0, 0], halves)
    packed = pl.store(pl.reinterpret_view(h, pl.INT32, shape=[R, C // 2]), [0, 0], packed)
    return bits, halves, packed


@pl.jit
def entry(
    x: pl.Tensor[[R, C], pl.FP32],
    half: pl.Tensor[[R, C // 2], pl.FP32],
    flat: pl.Out[pl.Tensor[[R, C], pl.FP32]],
    spread: pl.Out[pl.Tensor[[R, 4 * C], pl.FP32]],
    rows: pl.Out[pl.Tensor[[2 * R, C], pl.FP32]],
    cols: pl.Out[pl.Tensor[[R, C], pl.FP32]],
    masked: pl.Out[pl.Tensor[[R, 2 * C], pl.FP32]],
    trows: pl.Out[pl.Tensor[[R, C], pl.FP32]],
    draws: pl.Out[pl.Tensor[[R, C], pl.UINT32]],
    signed: pl.Out[pl.Tensor[[R, C], pl.INT32]],
    bits: pl.Out[pl.Tensor[[R, C], pl.INT32]],
    halves: pl.Out[pl.Tensor[[R, C], pl.INT16]],
    packed: pl.Out[pl.Tensor[[R, C // 2], pl.INT32]],
):
    flat, spread, rows, first = pl.submit(tile_scatters, x, flat, spread, rows)
    cols, masked, trows, second = pl.submit(tensor_scatters, x, half, cols, masked, trows)
    # A task that runs nothing and completes when both have: one id for the two.
    both = pl.system.task_dummy(deps=[first, second])
    draws, signed, third = pl.submit(randoms, draws, signed, deps=[both])
    # The id of the task that last wrote `draws` (the launch just above).
    after = pl.task_id_of(draws)
    bits, halves, packed, fourth = pl.submit(views, x, bits, halves, packed, deps=[after])
    return flat, spread, rows, cols, masked, trows, draws, signed, bits, halves, packed
