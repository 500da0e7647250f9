# The part ops broadcast their operands as PyPTO's element-wise ops do (ops.md §2.2/§2.3:
# "shapes broadcastable"): a [R, 1] column or a [1, C] row is read at index 0 along the
# axis it has one element of, and counts as valid along all of it. The harness build prints
# what `plc run` prints (tests/compile.rs); tests/run.rs checks the values.
import pypto.language as pl

R = 4
C = 16


@pl.jit.incore
def parts(
    x: pl.Tensor[[R, C], pl.FP32],
    col: pl.Tensor[[R, 1], pl.FP32],
    row: pl.Tensor[[1, C], pl.FP32],
    out: pl.Out[pl.Tensor[[3 * R, C], pl.FP32]],
):
    a = pl.load(x, [0, 0], [R, C], valid_shape=[2, C])
    c = pl.load(col, [0, 0], [R, 1])
    r = pl.load(row, [0, 0], [1, C])
    out = pl.store(pl.tile.part_add(a, c), [0, 0], out)
    out = pl.store(pl.part_max(r, a), [R, 0], out)
    out = pl.store(pl.part_mul(a, r), [2 * R, 0], out)
    return out


@pl.jit
def entry(
    x: pl.Tensor[[R, C], pl.FP32],
    col: pl.Tensor[[R, 1], pl.FP32],
    row: pl.Tensor[[1, C], pl.FP32],
    out: pl.Out[pl.Tensor[[3 * R, C], pl.FP32]],
):
    return parts(x, col, row, out)
