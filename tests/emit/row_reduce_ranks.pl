# Row reductions of operands of other ranks than 2 (ops.md §2.2 TRED, §2.3 ROWRED): the
# last axis is reduced and kept as 1, the leading axes are kept, so `row_sum` of a
# [2, 4, 8] tensor or tile is [2, 4, 1] and of an [8] tensor is [1]. The harness build
# prints what `plc run` prints (tests/compile.rs); tests/run.rs checks the values.
import pypto.language as pl

B = 2
R = 4
C = 8


@pl.jit.incore
def reduced(
    x: pl.Tensor[[B, R, C], pl.FP32],
    v: pl.Tensor[[C], pl.FP32],
    rows: pl.Out[pl.Tensor[[B, R, 6], pl.FP32]],
    whole: pl.Out[pl.Tensor[[2], pl.FP32]],
):
    s: pl.Tensor[[B, R, 1], pl.FP32] = pl.tensor.row_sum(x)
    hi: pl.Tensor[[B, R, 1], pl.FP32] = pl.tensor.row_max(x)
    lo: pl.Tensor[[B, R, 1], pl.FP32] = pl.tensor.row_min(x)
    rows = pl.assemble(rows, s, [0, 0, 0])
    rows = pl.assemble(rows, hi, [0, 0, 1])
    rows = pl.assemble(rows, lo, [0, 0, 2])
    rows = pl.assemble(rows, pl.row_max(x), [0, 0, 3])
    t = pl.load(x, [0, 0, 0], [B, R, C])
    tmp = pl.create_tile([B, R, C], pl.FP32)
    ts: pl.Tile[[B, R, 1], pl.FP32] = pl.tile.row_sum(t, tmp)
    rows = pl.store(ts, [0, 0, 4], rows)
    rows = pl.store(pl.row_min(t, tmp), [0, 0, 5], rows)
    total: pl.Tensor[[1], pl.FP32] = pl.tensor.row_sum(v)
    whole = pl.assemble(whole, total, [0])
    whole = pl.assemble(whole, pl.row_max(v), [1])
    return rows, whole


@pl.jit
def entry(
    x: pl.Tensor[[B, R, C], pl.FP32],
    v: pl.Tensor[[C], pl.FP32],
    rows: pl.Out[pl.Tensor[[B, R, 6], pl.FP32]],
    whole: pl.Out[pl.Tensor[[2], pl.FP32]],
):
    rows, whole = reduced(x, v, rows, whole)
    return rows, whole
