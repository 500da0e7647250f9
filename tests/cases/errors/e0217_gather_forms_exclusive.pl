# E0217: the forms of pl.tensor.gather are mutually exclusive: the index form (dim,
# index), mask_pattern= and the compare form (kvalue=, cmp_mode=, out_cols=).
import pypto.language as pl


@pl.program
class GatherForms:
    @pl.function(type=pl.FunctionType.InCore)
    def index_and_compare(
        self, src: pl.Tensor[[32, 64], pl.FP32], idx: pl.Tensor[[32, 8], pl.INT32], kv: pl.Scalar[pl.FP32]
    ) -> pl.Tensor[[32, 8], pl.FP32]:
        return pl.tensor.gather(src, dim=-1, index=idx, kvalue=kv, cmp_mode="eq", out_cols=8)

    @pl.function(type=pl.FunctionType.InCore)
    def mask_and_compare(self, src: pl.Tensor[[32, 64], pl.FP32], kv: pl.Scalar[pl.FP32]) -> pl.Tensor[[32, 8], pl.INT32]:
        return pl.tensor.gather(src, mask_pattern=1, kvalue=kv, cmp_mode="eq", out_cols=8)

    @pl.function(type=pl.FunctionType.InCore)
    def index_and_mask(
        self, src: pl.Tensor[[32, 64], pl.FP32], idx: pl.Tensor[[32, 8], pl.INT32]
    ) -> pl.Tensor[[32, 8], pl.FP32]:
        return pl.gather(src, -1, idx, mask_pattern=1)

    @pl.function(type=pl.FunctionType.InCore)
    def index_only(
        self, src: pl.Tensor[[32, 64], pl.FP32], idx: pl.Tensor[[32, 8], pl.INT32]
    ) -> pl.Tensor[[32, 8], pl.FP32]:
        return pl.gather(src, -1, idx)
