# E0508: a Graph function calls another Graph function.
import pypto.language as pl

@pl.jit.incore
def kernel(a: pl.Tensor[[64], pl.FP32], out: pl.InOut[pl.Tensor[[64], pl.FP32]]):
    t = pl.load(a, [0], [64])
    pl.store(t, [0], out)
    return out


@pl.jit.graph
def inner(a: pl.Tensor[[64], pl.FP32], c: pl.InOut[pl.Tensor[[64], pl.FP32]]):
    c = kernel(a, c)
    return c


@pl.jit.graph
def outer(a: pl.Tensor[[64], pl.FP32], c: pl.InOut[pl.Tensor[[64], pl.FP32]]):
    c = inner(a, c)
    return c
