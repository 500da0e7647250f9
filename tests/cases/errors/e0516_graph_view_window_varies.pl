# E0516: a view of a boundary tensor whose window mixes a parameter and a loop variable:
# the call site cannot rebuild it and it differs between replays.
import pypto.language as pl


@pl.jit.incore
def kernel(a: pl.Tensor[[64], pl.FP32], out: pl.InOut[pl.Tensor[[64], pl.FP32]]):
    t = pl.load(a, [0], [64])
    pl.store(t, [0], out)
    return out


@pl.jit.graph
def layer(w: pl.Tensor[[1024], pl.FP32], c: pl.InOut[pl.Tensor[[64], pl.FP32]], layer_idx: pl.Scalar[pl.INDEX]):
    for i in pl.range(4):
        off = layer_idx * 256 + i * 64
        wl = pl.tensor.slice(w, [64], [off])
        c = kernel(wl, c)
    return c
