# E0201: a value of `pl.yield_` that fails (here an undefined name) is reported once: the
# names that receive it are still bound, and the count of values is not reported again.
import pypto.language as pl


@pl.function
def main(x: pl.Tensor[[64], pl.FP32], flag: pl.Scalar[pl.INT64]) -> pl.Tensor[[64], pl.FP32]:
    if flag == 0:
        out: pl.Tensor[[64], pl.FP32] = pl.yield_(scale(x))
    else:
        out: pl.Tensor[[64], pl.FP32] = pl.yield_(x)
    return out
