# MX quantization (newer than ops.md; PyPTO's codegen tests use it): `pl.quant_mx` cuts a
# vector tile into blocks of 32 along its columns and gives the pair (FP8E4M3FN data,
# FP8E8M0 block scales), ready for `pl.matmul_mx`. With group_axis=1 (the A side) an
# [M, K] source keeps its shape; with group_axis=0 (the B side) an [N, K] source comes out
# as [K, N]. MX scales loaded from memory name their layout (`mx_layout=`), and FP8E5M2
# data is accepted beside FP8E4M3FN. Like the MX matmuls, nothing here has a CPU form:
# `plc run` and `plc compile` name `pl.quant_mx` and say why (tests/run.rs).
import pypto.language as pl


@pl.jit.incore
def quantized(
    a: pl.Tensor[[16, 64], pl.BF16],
    b: pl.Tensor[[32, 64], pl.FP32],
    out: pl.Out[pl.Tensor[[16, 32], pl.FP32]],
):
    qa, sa = pl.quant_mx(pl.load(a, [0, 0], [16, 64]), group_axis=1)
    pair = pl.quant_mx(pl.load(b, [0, 0], [32, 64]), group_axis=0, dtype=pl.FP8E4M3FN)
    qb = pair[0]
    sb = pair[1]
    la = pl.move(pl.move(qa, target_memory=pl.Mem.Mat), target_memory=pl.Mem.Left)
    las = pl.move(pl.move(sa, target_memory=pl.Mem.Mat), target_memory=pl.Mem.LeftScale)
    rb = pl.move(pl.move(qb, target_memory=pl.Mem.Mat), target_memory=pl.Mem.Right)
    rbs = pl.move(pl.move(sb, target_memory=pl.Mem.Mat), target_memory=pl.Mem.RightScale)
    las = pl.tget_scale_addr(las, la)
    rbs = pl.tget_scale_addr(rbs, rb)
    out = pl.store(pl.matmul_mx(la, las, rb, rbs), [0, 0], out)
    return out


@pl.jit.incore
def prequantized(
    a: pl.Tensor[[32, 128], pl.FP8E5M2],
    sa: pl.Tensor[[32, 4], pl.FP8E8M0],
    b: pl.Tensor[[128, 32], pl.FP8E5M2],
    sb: pl.Tensor[[4, 32], pl.FP8E8M0],
    out: pl.Out[pl.Tensor[[32, 32], pl.FP32]],
):
    la = pl.move(pl.load(a, [0, 0], [32, 128], target_memory=pl.Mem.Mat), target_memory=pl.Mem.Left)
    sa_l1 = pl.load(sa, [0, 0], [32, 4], target_memory=pl.Mem.Mat, mx_layout="mx_a_zz")
    rb = pl.move(pl.load(b, [0, 0], [128, 32], target_memory=pl.Mem.Mat), target_memory=pl.Mem.Right)
    sb_l1 = pl.load(sb, [0, 0], [4, 32], target_memory=pl.Mem.Mat, mx_layout="mx_b_nn")
    las = pl.tget_scale_addr(pl.move(sa_l1, target_memory=pl.Mem.LeftScale), la)
    rbs = pl.tget_scale_addr(pl.move(sb_l1, target_memory=pl.Mem.RightScale), rb)
    out = pl.store(pl.matmul_mx(la, las, rb, rbs), [0, 0], out)
    return out


@pl.jit
def entry(
    a: pl.Tensor[[16, 64], pl.BF16],
    b: pl.Tensor[[32, 64], pl.FP32],
    out: pl.Out[pl.Tensor[[16, 32], pl.FP32]],
):
    out = quantized(a, b, out)
    return out


@pl.jit
def prequant_entry(
    a: pl.Tensor[[32, 128], pl.FP8E5M2],
    sa: pl.Tensor[[32, 4], pl.FP8E8M0],
    b: pl.Tensor[[128, 32], pl.FP8E5M2],
    sb: pl.Tensor[[4, 32], pl.FP8E8M0],
    out: pl.Out[pl.Tensor[[32, 32], pl.FP32]],
):
    out = prequantized(a, sa, b, sb, out)
    return out
