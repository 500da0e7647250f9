# E0506: a graph allocates a tensor whose shape is known only at run time.
import pypto.language as pl

@pl.jit.incore
def kernel(a: pl.Tensor[[64], pl.FP32], out: pl.InOut[pl.Tensor[[64], pl.FP32]]):
    t = pl.load(a, [0], [64])
    pl.store(t, [0], out)
    return out


@pl.jit.graph
def layer(a: pl.Tensor[[64], pl.FP32], c: pl.InOut[pl.Tensor[[64], pl.FP32]], n: pl.Scalar[pl.INDEX]):
    s = pl.create_tensor([n], pl.FP32)
    s = kernel(a, s)
    c = kernel(s, c)
    return c
