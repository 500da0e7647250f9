# The MX (microscaling) matmuls (issue 11, ops.md §2.3): FP8E4M3FN data scaled by FP8E8M0
# blocks, FP32 results in Acc. They parse, type and lower, but neither `plc run` nor the
# C++ backend runs them (docs/kernels.md): each names the op and says why (tests/run.rs).
import pypto.language as pl


@pl.jit.incore
def mx(
    a: pl.Tensor[[16, 64], pl.FP8E4M3FN],
    sa: pl.Tensor[[16, 2], pl.FP8E8M0],
    b: pl.Tensor[[64, 32], pl.FP8E4M3FN],
    sb: pl.Tensor[[2, 32], pl.FP8E8M0],
    bias: pl.Tensor[[1, 32], pl.FP32],
    out: pl.Out[pl.Tensor[[16, 32], pl.FP32]],
):
    lhs = pl.load(a, [0, 0], [16, 64], target_memory=pl.Mem.Left)
    ls = pl.load(sa, [0, 0], [16, 2], target_memory=pl.Mem.LeftScale)
    rhs = pl.load(b, [0, 0], [64, 32], target_memory=pl.Mem.Right)
    rs = pl.load(sb, [0, 0], [2, 32], target_memory=pl.Mem.RightScale)
    acc = pl.matmul_mx(lhs, ls, rhs, rs)
    acc = pl.tile.matmul_mx(lhs, ls, rhs, rs)
    acc = pl.matmul_mx_acc(acc, lhs, ls, rhs, rs)
    b_tile = pl.load(bias, [0, 0], [1, 32], target_memory=pl.Mem.Bias)
    biased = pl.tile.matmul_mx_bias(lhs, ls, rhs, rs, b_tile)
    acc = pl.tile.add(acc, biased)
    ls = pl.tile.tget_scale_addr(ls, lhs)
    out = pl.store(acc, [0, 0], out)
    return out


@pl.jit
def entry(
    a: pl.Tensor[[16, 64], pl.FP8E4M3FN],
    sa: pl.Tensor[[16, 2], pl.FP8E8M0],
    b: pl.Tensor[[64, 32], pl.FP8E4M3FN],
    sb: pl.Tensor[[2, 32], pl.FP8E8M0],
    bias: pl.Tensor[[1, 32], pl.FP32],
    out: pl.Out[pl.Tensor[[16, 32], pl.FP32]],
):
    out = mx(a, sa, b, sb, bias, out)
    return out
