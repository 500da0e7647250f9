# E0515: a graph passes a scalar read from a tensor to a task: it would be frozen.
import pypto.language as pl


@pl.jit.incore
def band(a: pl.Tensor[[256], pl.FP32], out: pl.InOut[pl.Tensor[[64], pl.FP32]], off: pl.Scalar[pl.INDEX]):
    t = pl.load(a, [off], [64])
    pl.store(t, [0], out)
    return out


@pl.jit.graph
def layer(a: pl.Tensor[[256], pl.FP32], c: pl.InOut[pl.Tensor[[64], pl.FP32]], offsets: pl.Tensor[[4], pl.INDEX]):
    off = pl.tensor.read(offsets, [0])
    c = band(a, c, off)
    return c
