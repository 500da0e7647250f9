# Ops the C++ backend has no form for (issue 11; `plc compile` refuses them with E0601,
# docs/kernels.md). `pl.system.syncall`, hard and soft, waits for every core of a launch:
# `plc run` runs these launches of one block, which meet the barrier at once. The MX matmul
# `pl.matmul_mx_bias` (FP8 data, FP8E8M0 scales) has no CPU semantics: `plc run` stops
# there with E0803 naming the op.
# run: --entry barrier
# run: --entry soft_barrier
# run: --entry mx_bias
import pypto.language as pl


@pl.jit.incore
def hard(x: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]):
    t = pl.load(x, [0, 0], [16, 16])
    pl.system.syncall()
    out = pl.store(t, [0, 0], out)
    return out


@pl.jit.incore
def soft(x: pl.Tensor[[16, 16], pl.FP32], ws: pl.InOut[pl.Tensor[[8], pl.INT32]], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]):
    t = pl.load(x, [0, 0], [16, 16])
    pl.system.syncall(core_type="aiv", mode="soft", gm_workspace=ws, used_cores=4)
    out = pl.store(t, [0, 0], out)
    return out, ws


@pl.jit
def barrier(x: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]):
    out = hard(x, out)
    return out


@pl.jit
def soft_barrier(x: pl.Tensor[[16, 16], pl.FP32], ws: pl.InOut[pl.Tensor[[8], pl.INT32]], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]):
    out, ws = soft(x, ws, out)
    return out, ws


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
    b_tile = pl.load(bias, [0, 0], [1, 32], target_memory=pl.Mem.Bias)
    out = pl.store(pl.matmul_mx_bias(lhs, ls, rhs, rs, b_tile), [0, 0], out)
    return out


@pl.jit
def mx_bias(
    a: pl.Tensor[[16, 64], pl.FP8E4M3FN],
    sa: pl.Tensor[[16, 2], pl.FP8E8M0],
    b: pl.Tensor[[64, 32], pl.FP8E4M3FN],
    sb: pl.Tensor[[2, 32], pl.FP8E8M0],
    bias: pl.Tensor[[1, 32], pl.FP32],
    out: pl.Out[pl.Tensor[[16, 32], pl.FP32]],
):
    out = mx(a, sa, b, sb, bias, out)
    return out
