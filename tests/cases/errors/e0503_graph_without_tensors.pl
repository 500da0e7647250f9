# E0503: a graph with no tensor on its boundary.
import pypto.language as pl

@pl.jit.incore
def kernel(a: pl.Tensor[[64], pl.FP32], out: pl.InOut[pl.Tensor[[64], pl.FP32]]):
    t = pl.load(a, [0], [64])
    pl.store(t, [0], out)
    return out


@pl.jit.graph
def layer(n: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INDEX]:
    return n
