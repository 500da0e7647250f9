# E0214: two module-level pl functions with the same name.
import pypto.language as pl


@pl.jit.incore
def kernel(x: pl.Tensor, out: pl.Out[pl.Tensor]):
    t = pl.load(x, [0, 0], [64, 64])
    out = pl.store(t, [0, 0], out)
    return out


@pl.jit.incore
def kernel(x: pl.Tensor, out: pl.Out[pl.Tensor]):
    t = pl.load(x, [0, 0], [64, 64])
    out = pl.store(pl.mul(t, t), [0, 0], out)
    return out


@pl.jit
def entry(x: pl.Tensor, out: pl.Out[pl.Tensor]):
    out = kernel(x, out)
    return out
