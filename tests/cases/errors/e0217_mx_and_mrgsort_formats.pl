# E0217: PyPTO's checks of the MX matmuls (FP8E4M3FN or FP8E5M2 data, FP8E8M0 scales, K a multiple
# of 64, an FP32 accumulator), of mrgsort_format2 (sources of one dtype) and of create_l1
# (a static, positive shape).
import pypto.language as pl


@pl.function(type=pl.FunctionType.InCore)
def k(
    a: pl.Tensor[[16, 64], pl.FP16],
    a8: pl.Tensor[[16, 32], pl.FP8E4M3FN],
    s: pl.Tensor[[16, 2], pl.FP8E8M0],
    b: pl.Tensor[[32, 32], pl.FP8E4M3FN],
    t: pl.Tensor[[1, 64], pl.FP32],
    u: pl.Tensor[[1, 64], pl.FP16],
):
    lhs = pl.load(a, [0, 0], [16, 64], target_memory=pl.Mem.Left)
    l8 = pl.load(a8, [0, 0], [16, 32], target_memory=pl.Mem.Left)
    ls = pl.load(s, [0, 0], [16, 2], target_memory=pl.Mem.LeftScale)
    rhs = pl.load(b, [0, 0], [32, 32], target_memory=pl.Mem.Right)
    x = pl.matmul_mx(lhs, ls, rhs, ls)
    y = pl.matmul_mx(l8, ls, rhs, ls)
    z = pl.tile.matmul_mx_acc(ls, l8, ls, rhs, ls)
    m = pl.tensor.mrgsort_format2(t, u)
    l1 = pl.create_l1([16, 0], pl.FP16)
