# The reductions and broadcasts of ops.md §2.3 in their `pl.tile.*` spellings (issue 11):
# row and column maxima, minima and sums (a window cut by the tensor's end, so only the
# valid rows count), the arg-max/arg-min positions (INT32), and every `row_expand*` /
# `col_expand*` member that had no such spelling in a program. The harness build prints
# what `plc run` prints (tests/compile.rs).
import pypto.language as pl

R = 6
C = 16


@pl.jit.incore
def reduce(
    x: pl.Tensor[[R, C], pl.FP32],
    rows: pl.Out[pl.Tensor[[R, 3], pl.FP32]],
    cols: pl.Out[pl.Tensor[[3, C], pl.FP32]],
    args: pl.Out[pl.Tensor[[R, 1], pl.INT32]],
    colargs: pl.Out[pl.Tensor[[2, C], pl.INT32]],
):
    # Eight rows of a six-row tensor: rows 6 and 7 are outside, not reduced.
    t = pl.load(x, [0, 0], [8, C])
    tmp = pl.tile.create_tile([8, C], dtype=pl.FP32)
    rows = pl.store(pl.tile.row_max(t, tmp), [0, 0], rows)
    rows = pl.store(pl.tile.row_min(t, tmp), [0, 1], rows)
    rows = pl.store(pl.tile.row_sum(t, tmp), [0, 2], rows)
    cols = pl.store(pl.tile.col_max(t), [0, 0], cols)
    cols = pl.store(pl.tile.col_min(t), [1, 0], cols)
    cols = pl.store(pl.tile.col_sum(t, tmp), [2, 0], cols)
    full = pl.load(x, [0, 0], [R, C])
    scratch = pl.tile.create_tile([R, C], dtype=pl.FP32)
    args = pl.store(pl.tile.row_argmax(full, scratch), [0, 0], args)
    colargs = pl.store(pl.tile.col_argmax(full, scratch), [0, 0], colargs)
    colargs = pl.store(pl.tile.col_argmin(full, scratch), [1, 0], colargs)
    return rows, cols, args, colargs


@pl.jit.incore
def expand(
    x: pl.Tensor[[R, C], pl.FP32],
    rv: pl.Tensor[[R, 1], pl.FP32],
    cv: pl.Tensor[[1, C], pl.FP32],
    rows: pl.Out[pl.Tensor[[5 * R, C], pl.FP32]],
    cols: pl.Out[pl.Tensor[[7 * R, C], pl.FP32]],
):
    t = pl.load(x, [0, 0], [R, C])
    r = pl.load(rv, [0, 0], [R, 1])
    c = pl.load(cv, [0, 0], [1, C])
    # Divisors away from zero.
    rd = pl.tile.adds(pl.tile.abs(r), 0.5)
    cd = pl.tile.adds(pl.tile.abs(c), 0.5)
    rows = pl.store(pl.tile.row_expand(t, r), [0, 0], rows)
    rows = pl.store(pl.tile.row_expand_div(t, rd), [R, 0], rows)
    rows = pl.store(pl.tile.row_expand_expdif(t, r), [2 * R, 0], rows)
    rows = pl.store(pl.tile.row_expand_max(t, r), [3 * R, 0], rows)
    rows = pl.store(pl.tile.row_expand_sub(t, r), [4 * R, 0], rows)
    cols = pl.store(pl.tile.col_expand(t, c), [0, 0], cols)
    cols = pl.store(pl.tile.col_expand_add(t, c), [R, 0], cols)
    cols = pl.store(pl.tile.col_expand_div(t, cd), [2 * R, 0], cols)
    cols = pl.store(pl.tile.col_expand_max(t, c), [3 * R, 0], cols)
    cols = pl.store(pl.tile.col_expand_min(t, c), [4 * R, 0], cols)
    cols = pl.store(pl.tile.col_expand_mul(t, c), [5 * R, 0], cols)
    cols = pl.store(pl.tile.col_expand_sub(t, c), [6 * R, 0], cols)
    return rows, cols


@pl.jit
def entry(
    x: pl.Tensor[[R, C], pl.FP32],
    rv: pl.Tensor[[R, 1], pl.FP32],
    cv: pl.Tensor[[1, C], pl.FP32],
    rows: pl.Out[pl.Tensor[[R, 3], pl.FP32]],
    cols: pl.Out[pl.Tensor[[3, C], pl.FP32]],
    args: pl.Out[pl.Tensor[[R, 1], pl.INT32]],
    colargs: pl.Out[pl.Tensor[[2, C], pl.INT32]],
    erows: pl.Out[pl.Tensor[[5 * R, C], pl.FP32]],
    ecols: pl.Out[pl.Tensor[[7 * R, C], pl.FP32]],
):
    rows, cols, args, colargs = reduce(x, rows, cols, args, colargs)
    erows, ecols = expand(x, rv, cv, erows, ecols)
    return rows, cols, args, colargs, erows, ecols
