# E0223: a subscript-write takes no slice step, as a subscript read takes none.
import pypto.language as pl


@pl.function(type=pl.FunctionType.Orchestration)
def main(a: pl.Tensor[[16, 32], pl.FP32], b: pl.Tensor[[8, 32], pl.FP32]) -> pl.Tensor[[16, 32], pl.FP32]:
    a[0:8, :] = b
    a[0:16:2, :] = b
    return a
