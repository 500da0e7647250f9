# E0217: a pl.array value has one dimension: a read takes one index.
import pypto.language as pl


@pl.function(type=pl.FunctionType.Orchestration)
def main(a: pl.Tensor[[16], pl.FP32]) -> pl.Tensor[[16], pl.FP32]:
    arr = pl.array.create(4, pl.INT32)
    fine = arr[1]
    bad = arr[0, 1]
    return a
