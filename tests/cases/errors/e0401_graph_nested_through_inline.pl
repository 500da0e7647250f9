# A graph region inside an inline function is allowed where it is written; spliced into a
# caller that is itself inside a graph region, it becomes a region inside a region, which
# OutlineGraphScopes reports with both regions and the function.
import pypto.language as pl


@pl.jit.incore
def scale(x: pl.Tensor[[64, 64], pl.FP32], y: pl.Out[pl.Tensor[[64, 64], pl.FP32]]):
    t = pl.load(x, [0, 0], [64, 64])
    pl.store(pl.mul(t, 2.0), [0, 0], y)
    return y


@pl.jit.inline
def layer(x: pl.Tensor[[64, 64], pl.FP32], y: pl.Out[pl.Tensor[[64, 64], pl.FP32]]):
    with pl.graph("inner_layer"):
        y = scale(x, y)
    return y


@pl.jit
def main(x: pl.Tensor[[64, 64], pl.FP32], y: pl.Out[pl.Tensor[[64, 64], pl.FP32]]):
    with pl.graph("outer_block"):
        y = layer(x, y)
    return y
