# E0511: a graph launches a task inside a while loop.
import pypto.language as pl


@pl.jit.incore
def kernel(a: pl.Tensor[[64], pl.FP32], out: pl.InOut[pl.Tensor[[64], pl.FP32]]):
    t = pl.load(a, [0], [64])
    pl.store(t, [0], out)
    return out


@pl.jit.graph
def layer(a: pl.Tensor[[64], pl.FP32], c: pl.InOut[pl.Tensor[[64], pl.FP32]], n: pl.Scalar[pl.INDEX]):
    i = 0
    while i < n:
        c = kernel(a, c)
        i = i + 1
    return c
