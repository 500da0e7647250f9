# `pl.read(t, i)` with one scalar position reads a 1-D tensor; a 2-D tensor needs a list
# of two positions.
import pypto.language as pl


@pl.function(type=pl.FunctionType.Orchestration)
def main(t: pl.Tensor[[4, 4], pl.INT32]) -> pl.Scalar[pl.INT32]:
    v = pl.read(t, 3)
    return v
