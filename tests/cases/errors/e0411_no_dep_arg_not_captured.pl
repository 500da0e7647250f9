# E0411: no_dep_args names a tensor the region does not use.
import pypto.language as pl


@pl.jit
def main(a: pl.Tensor[[64], pl.FP32], other: pl.Tensor[[64], pl.FP32], out: pl.Out[pl.Tensor[[64], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP, no_dep_args=[other]):
        t = pl.load(a, [0], [64])
        pl.store(t, [0], out)
    return out
