# PyPTO's dtype and shape rules of the tensor bit ops, `not_`, `arange`, the column
# arg-reductions, `div`, `row_min`, `sort32` and `set_validshape` (ops.md §2.2): each call
# below is refused (E0217) as PyPTO refuses it.
import pypto.language as pl


@pl.jit.incore
def kernel(
    x: pl.Tensor[[4, 8], pl.FP32],
    i: pl.Tensor[[4, 8], pl.INT32],
    row: pl.Tensor[[1, 8], pl.INT32],
    v: pl.Tensor[[8], pl.FP32],
    out: pl.Out[pl.Tensor[[4, 8], pl.INT32]],
):
    a = pl.tensor.and_(x, i)
    b = pl.tensor.or_(i, row)
    c = pl.tensor.xors(x, 3)
    d = pl.tensor.shls(i, -1)
    e = pl.tensor.shr(i, x)
    f = pl.tensor.not_(i)
    g = pl.tensor.arange(0, [1, 8], dtype=pl.FP32)
    h = pl.tensor.col_argmax(v)
    small = pl.tensor.cast(x, pl.INT8)
    j = pl.tensor.div(small, small)
    k = pl.tensor.div(i, i, high_precision=True)
    m = pl.tensor.row_min(small)
    n = pl.tensor.sort32(x, i)
    o = pl.tensor.sort32(i, pl.tensor.arange(0, [4, 8], dtype=pl.UINT32))
    p = pl.tensor.set_validshape(x, 5, 8)
    out = pl.assemble(out, pl.tensor.ands(i, 7), [0, 0])
    return out
