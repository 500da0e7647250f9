# E0514: a scalar computed inline in a task argument inside a graph.
import pypto.language as pl


@pl.jit.incore
def band(a: pl.Tensor[[256], pl.FP32], out: pl.InOut[pl.Tensor[[64], pl.FP32]], off: pl.Scalar[pl.INDEX]):
    t = pl.load(a, [off], [64])
    pl.store(t, [0], out)
    return out


@pl.jit.graph
def layer(a: pl.Tensor[[256], pl.FP32], c: pl.InOut[pl.Tensor[[64], pl.FP32]], i: pl.Scalar[pl.INDEX]):
    c = band(a, c, i * 64)
    return c
