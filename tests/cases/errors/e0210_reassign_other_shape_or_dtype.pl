# E0210: a plain assignment may not give a name a value of another shape or dtype
# (PyPTO: "Cannot reassign 'x' with a different type"); a loop-carried name may.
import pypto.language as pl


@pl.program
class Reassign:
    @pl.function(type=pl.FunctionType.Orchestration)
    def shapes(self, src: pl.Tensor[[32, 16], pl.FP32]) -> pl.Tensor[[32, 16], pl.FP32]:
        half = pl.slice(src, [16, 16], [0, 0])
        half = pl.slice(src, [8, 16], [0, 0])
        src = pl.slice(src, [4, 16], [0, 0])
        return src

    @pl.function(type=pl.FunctionType.Orchestration)
    def dtypes(self, src: pl.Tensor[[32, 16], pl.FP32]) -> pl.Tensor[[32, 16], pl.FP32]:
        wide = pl.add(src, src)
        wide = pl.cast(src, target_type=pl.BF16)
        return src

    @pl.function(type=pl.FunctionType.InCore)
    def tiles(
        self, src: pl.Tensor[[32, 16], pl.FP32], dst: pl.Out[pl.Tensor[[32, 16], pl.FP32]]
    ) -> pl.Tensor[[32, 16], pl.FP32]:
        tile = pl.load(src, [0, 0], [32, 16])
        tile = pl.row_sum(tile)
        same = pl.load(src, [0, 0], [32, 16])
        same = pl.exp(same)
        dst = pl.store(same, [0, 0], dst)
        return dst
