# E0202: pl.cond() takes exactly one argument, the loop condition.
import pypto.language as pl


@pl.function(type=pl.FunctionType.Orchestration)
def main(a: pl.Tensor[[16], pl.FP32], n: pl.Scalar[pl.INDEX]) -> pl.Tensor[[16], pl.FP32]:
    for (i,) in pl.while_(init_values=(0,)):
        pl.cond(i < n, i < 8)
        i = pl.yield_(i + 1)
    return a
