# Two rules of PyPTO (ops.md §2.2, §2.3) that PyPTO's own tests use: `tile.shl`/`tile.shr`
# of two tiles keep the left operand's dtype (an INT16 tile shifted by INT32 counts stays
# INT16), and `pl.tensor.view(t, layout=...)` without a shape is a view of the same storage:
# `layout=DN` of an ND tensor reads it column-major, so the last two axes swap (an [R, C]
# tensor is viewed as [C, R]), `layout=ND` of that DN view swaps them back, and the layout a
# tensor has keeps it. Both in a kernel and in the orchestration, whose DN view the kernel
# takes as a DN parameter. The harness build prints what `plc run` prints
# (tests/compile.rs); tests/run.rs checks the values.
import pypto.language as pl

R = 8
C = 4


@pl.jit.incore
def shifted(
    a: pl.Tensor[[R, C], pl.INT16],
    b: pl.Tensor[[R, C], pl.INT32],
    shifts: pl.Out[pl.Tensor[[2 * R, C], pl.INT16]],
):
    p = pl.load(a, [0, 0], [R, C])
    n = pl.tile.ands(pl.load(b, [0, 0], [R, C]), 3)
    left: pl.Tile[[R, C], pl.INT16] = pl.shl(p, n)
    right: pl.Tile[[R, C], pl.INT16] = pl.tile.shr(p, n)
    shifts = pl.store(left, [0, 0], shifts)
    shifts = pl.store(right, [R, 0], shifts)
    return shifts


@pl.jit.incore
def viewed(
    x: pl.Tensor[[R, C], pl.FP32],
    xt: pl.Tensor[[C, R], pl.FP32, pl.TensorView(stride=[1, C], layout=pl.TensorLayout.DN)],
    views: pl.Out[pl.Tensor[[3 * C, R], pl.FP32]],
    same: pl.Out[pl.Tensor[[R, C], pl.FP32]],
):
    dn: pl.Tensor[[C, R], pl.FP32] = pl.tensor.view(x, layout=pl.TensorLayout.DN)
    views = pl.store(pl.load(dn, [0, 0], [C, R]), [0, 0], views)
    views = pl.store(pl.load(xt, [0, 0], [C, R]), [C, 0], views)
    back: pl.Tensor[[R, C], pl.FP32] = pl.tensor.view(xt, layout=pl.TensorLayout.ND)
    views = pl.store(pl.tile.transpose(pl.load(back, [0, 0], [R, C]), 0, 1), [2 * C, 0], views)
    nd: pl.Tensor[[R, C], pl.FP32] = pl.tensor.view(x, layout=pl.TensorLayout.ND)
    same = pl.store(pl.load(nd, [0, 0], [R, C]), [0, 0], same)
    return views, same


@pl.jit
def entry(
    a: pl.Tensor[[R, C], pl.INT16],
    b: pl.Tensor[[R, C], pl.INT32],
    x: pl.Tensor[[R, C], pl.FP32],
    shifts: pl.Out[pl.Tensor[[2 * R, C], pl.INT16]],
    views: pl.Out[pl.Tensor[[3 * C, R], pl.FP32]],
    same: pl.Out[pl.Tensor[[R, C], pl.FP32]],
):
    shifts = shifted(a, b, shifts)
    # The orchestration's own view: the kernel reads x through it as a [C, R] tensor.
    xt = pl.tensor.view(x, layout=pl.TensorLayout.DN)
    views, same = viewed(x, xt, views, same)
    return shifts, views, same
