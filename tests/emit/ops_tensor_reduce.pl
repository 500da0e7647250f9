# The reductions and expansions of `pl.tensor.*` (ops.md §2.2): row and column sums,
# maxima, minima, products and arg-extrema, and the row/column expand families, each
# result assembled into an Out tensor. The harness build prints what `plc run` prints
# (tests/compile.rs); tests/run.rs checks the values.
import pypto.language as pl

R = 4
C = 8


@pl.jit.incore
def reductions(
    x: pl.Tensor[[R, C], pl.FP32],
    rows: pl.Out[pl.Tensor[[R, 4], pl.FP32]],
    cols: pl.Out[pl.Tensor[[4, C], pl.FP32]],
    places: pl.Out[pl.Tensor[[3, C], pl.INT32]],
):
    rows = pl.assemble(rows, pl.tensor.row_sum(x), [0, 0])
    rows = pl.assemble(rows, pl.tensor.row_max(x), [0, 1])
    rows = pl.assemble(rows, pl.tensor.row_min(x), [0, 2])
    rows = pl.assemble(rows, pl.tensor.row_prod(pl.tensor.adds(x, 1.0)), [0, 3])
    cols = pl.assemble(cols, pl.tensor.col_sum(x), [0, 0])
    cols = pl.assemble(cols, pl.tensor.col_max(x), [1, 0])
    cols = pl.assemble(cols, pl.tensor.col_min(x), [2, 0])
    cols = pl.assemble(cols, pl.tensor.col_prod(pl.tensor.adds(x, 1.0)), [3, 0])
    places = pl.assemble(places, pl.tensor.col_argmax(x), [0, 0])
    places = pl.assemble(places, pl.tensor.col_argmin(x), [1, 0])
    places = pl.assemble(places, pl.tensor.reshape(pl.tensor.row_argmin(pl.tensor.reshape(x, [C, R])), [1, C]), [2, 0])
    return rows, cols, places


@pl.jit.incore
def expansions(
    x: pl.Tensor[[R, C], pl.FP32],
    col: pl.Tensor[[R, 1], pl.FP32],
    row: pl.Tensor[[1, C], pl.FP32],
    by_row: pl.Out[pl.Tensor[[R, 8 * C], pl.FP32]],
    by_col: pl.Out[pl.Tensor[[R, 8 * C], pl.FP32]],
):
    pos = pl.tensor.adds(pl.tensor.abs(col), 1.0)
    by_row = pl.assemble(by_row, pl.tensor.row_expand(x, col), [0, 0])
    by_row = pl.assemble(by_row, pl.tensor.row_expand_add(x, col), [0, C])
    by_row = pl.assemble(by_row, pl.tensor.row_expand_sub(x, col), [0, 2 * C])
    by_row = pl.assemble(by_row, pl.tensor.row_expand_mul(x, col), [0, 3 * C])
    # The same window again through the unified spelling: the values do not change.
    by_row = pl.assemble(by_row, pl.row_expand_mul(x, col), [0, 3 * C])
    by_row = pl.assemble(by_row, pl.tensor.row_expand_div(x, pos), [0, 4 * C])
    by_row = pl.assemble(by_row, pl.tensor.row_expand_max(x, col), [0, 5 * C])
    by_row = pl.assemble(by_row, pl.tensor.row_expand_min(x, col), [0, 6 * C])
    by_row = pl.assemble(by_row, pl.tensor.row_expand_expdif(x, col), [0, 7 * C])
    wide = pl.tensor.adds(pl.tensor.abs(row), 1.0)
    by_col = pl.assemble(by_col, pl.tensor.col_expand(x, row), [0, 0])
    by_col = pl.assemble(by_col, pl.tensor.col_expand_add(x, row), [0, C])
    by_col = pl.assemble(by_col, pl.tensor.col_expand_sub(x, row), [0, 2 * C])
    by_col = pl.assemble(by_col, pl.tensor.col_expand_mul(x, row), [0, 3 * C])
    by_col = pl.assemble(by_col, pl.col_expand_mul(x, row), [0, 3 * C])
    by_col = pl.assemble(by_col, pl.tensor.col_expand_div(x, wide), [0, 4 * C])
    by_col = pl.assemble(by_col, pl.tensor.col_expand_max(x, row), [0, 5 * C])
    by_col = pl.assemble(by_col, pl.tensor.col_expand_min(x, row), [0, 6 * C])
    by_col = pl.assemble(by_col, pl.tensor.col_expand_expdif(x, row), [0, 7 * C])
    return by_row, by_col


@pl.jit
def entry(
    x: pl.Tensor[[R, C], pl.FP32],
    col: pl.Tensor[[R, 1], pl.FP32],
    row: pl.Tensor[[1, C], pl.FP32],
    rows: pl.Out[pl.Tensor[[R, 4], pl.FP32]],
    cols: pl.Out[pl.Tensor[[4, C], pl.FP32]],
    places: pl.Out[pl.Tensor[[3, C], pl.INT32]],
    by_row: pl.Out[pl.Tensor[[R, 8 * C], pl.FP32]],
    by_col: pl.Out[pl.Tensor[[R, 8 * C], pl.FP32]],
):
    rows, cols, places = reductions(x, rows, cols, places)
    by_row, by_col = expansions(x, col, row, by_row, by_col)
    return rows, cols, places, by_row, by_col
