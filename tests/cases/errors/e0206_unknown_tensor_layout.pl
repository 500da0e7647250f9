# E0206: a layout in a Tensor annotation is one of PyPTO's layouts.
import pypto.language as pl


@pl.function(type=pl.FunctionType.Orchestration)
def main(
    a: pl.Tensor[[16, 32], pl.FP32, pl.NZ],
    b: pl.Tensor[[16, 32], pl.FP32, pl.ZN],
    c: pl.Tensor[[16, 32], pl.FP32, pl.TensorLayout.ROW],
) -> pl.Tensor[[16, 32], pl.FP32]:
    return a
