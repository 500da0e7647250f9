# The compare form of gather: PyPTO's type checks (ops.md §2.2-2.3, gather_compare rows).
import pypto.language as pl


@pl.function(type=pl.FunctionType.InCore)
def wrong_src(src: pl.Tensor[[32, 64], pl.UINT16], k: pl.Scalar[pl.UINT16]):
    d, c = pl.tensor.gather_compare(src, k, cmp_mode="eq", out_cols=8)


@pl.function(type=pl.FunctionType.InCore)
def wrong_kvalue(src: pl.Tensor[[32, 64], pl.FP32], k: pl.Scalar[pl.FP16]):
    s = pl.load(src, [0, 0], [32, 64])
    tmp = pl.tile.create([32, 64], pl.UINT8)
    d, c = pl.tile.gather_compare(s, k, tmp, cmp_mode="eq", out_cols=8)


@pl.function(type=pl.FunctionType.InCore)
def wrong_mode(src: pl.Tensor[[32, 64], pl.FP32], k: pl.Scalar[pl.FP32]):
    s = pl.load(src, [0, 0], [32, 64])
    tmp = pl.tile.create([32, 64], pl.UINT8)
    d, c = pl.tile.gather_compare(s, k, tmp, cmp_mode="bogus", out_cols=8)
    e, f = pl.tile.gather_compare(s, k, tmp, cmp_mode=99, out_cols=8)


@pl.function(type=pl.FunctionType.InCore)
def wrong_counts(src: pl.Tensor[[32, 64], pl.FP32], k: pl.Scalar[pl.FP32]):
    d, c = pl.tensor.gather(src, kvalue=k, cmp_mode="gt", out_cols=0)
    e, f = pl.tensor.gather(src, kvalue=k, cmp_mode="gt", out_cols=4, count_dtype=pl.FP32)


@pl.function(type=pl.FunctionType.InCore)
def two_forms(src: pl.Tensor[[32, 64], pl.FP32], idx: pl.Tensor[[32, 8], pl.INT32], k: pl.Scalar[pl.FP32]):
    g = pl.tensor.gather(src, dim=-1, index=idx, kvalue=k, cmp_mode="eq", out_cols=8)
    h = pl.tensor.gather(src, mask_pattern=1, kvalue=k, cmp_mode="eq", out_cols=8)


@pl.function(type=pl.FunctionType.InCore)
def wrong_rank(src: pl.Tensor[[2, 32, 64], pl.FP32], k: pl.Scalar[pl.FP32]):
    d, c = pl.tensor.gather_compare(src, k, cmp_mode="lt", out_cols=8)
