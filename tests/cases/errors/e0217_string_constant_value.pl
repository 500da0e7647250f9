# E0217: a string constant is not a value of pl code; op arguments that take a name
# (mode="round") still take one.
import pypto.language as pl


@pl.function(type=pl.FunctionType.Orchestration)
def main(a: pl.Tensor[[16], pl.FP32], n: pl.Scalar[pl.INDEX]) -> pl.Tensor[[16], pl.FP32]:
    half = pl.cast(a, pl.FP16, mode="round")
    s = "hello"
    m = n + "1"
    return a
