# E0513: a graph that launches no tasks.
import pypto.language as pl

@pl.jit.incore
def kernel(a: pl.Tensor[[64], pl.FP32], out: pl.InOut[pl.Tensor[[64], pl.FP32]]):
    t = pl.load(a, [0], [64])
    pl.store(t, [0], out)
    return out


@pl.jit.graph
def layer(a: pl.Tensor[[64], pl.FP32], c: pl.InOut[pl.Tensor[[64], pl.FP32]]):
    return c
