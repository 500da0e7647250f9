# E0208: a scalar parameter named as a pl.dynamic symbol binds it, and comes before the
# parameters whose annotations use the symbol.
import pypto.language as pl

Q = pl.dynamic("Q")
LATE = pl.dynamic("LATE")


@pl.function(type=pl.FunctionType.InCore)
def early(Q: pl.Scalar[pl.INDEX], x: pl.Tensor[[Q, 64], pl.FP32]) -> pl.Tensor[[Q, 64], pl.FP32]:
    return x


@pl.function(type=pl.FunctionType.InCore)
def late(x: pl.Tensor[[LATE, 64], pl.FP32], LATE: pl.Scalar[pl.INDEX]) -> pl.Tensor[[LATE, 64], pl.FP32]:
    return x
