# E0307: a graph region in an `@pl.jit.incore` kernel, called from the `@pl.jit` entry.
import pypto.language as pl

ROWS = 128
COLS = 128


@pl.jit.incore
def kernel(x: pl.Tensor, out: pl.Out[pl.Tensor]):
    with pl.graph("layer"):
        t = pl.load(x, [0, 0], [ROWS, COLS])
        out = pl.store(t, [0, 0], out)
    return out


@pl.jit
def entry(x: pl.Tensor, out: pl.Out[pl.Tensor]):
    out = kernel(x, out)
    return out
