# E0202 / E0217: pl.const() takes a number literal (possibly negated) and a dtype.
import pypto.language as pl


@pl.function(type=pl.FunctionType.Orchestration)
def main(a: pl.Tensor[[16], pl.FP32], n: pl.Scalar[pl.INDEX]) -> pl.Tensor[[16], pl.FP32]:
    fine = pl.const(-1, pl.INT32)
    half = pl.const(0.5, pl.FP16)
    one = pl.const(1)
    three = pl.const(3, pl.INT32, 5)
    named = pl.const(n, pl.INT32)
    return a
