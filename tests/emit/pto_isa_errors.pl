# The PTO-ISA backend's errors (`plc compile --target a2a3sim --kernels pto-isa`; issue 13):
# E0620 an op it does not map yet, E0621 tiles that do not fit in the unified buffer,
# E0622 a tile whose rows (a one-column tile: whose column) are not a multiple of 32 bytes. tests/cli.rs checks the codes
# and positions.
import pypto.language as pl


@pl.jit.incore
def sines(x: pl.Tensor[[64, 64], pl.FP32], out: pl.Out[pl.Tensor[[64, 64], pl.FP32]]):
    t = pl.load(x, [0, 0], [64, 64])
    pl.store(pl.sin(t), [0, 0], out)
    return out


@pl.jit.incore
def too_big(x: pl.Tensor[[256, 256], pl.FP32], out: pl.Out[pl.Tensor[[256, 256], pl.FP32]]):
    t = pl.load(x, [0, 0], [128, 256])
    u = pl.load(x, [128, 0], [128, 256])
    pl.store(pl.add(t, u), [0, 0], out)
    return out


@pl.jit.incore
def narrow(x: pl.Tensor[[16, 4], pl.FP32], out: pl.Out[pl.Tensor[[16, 4], pl.FP32]]):
    t = pl.load(x, [0, 0], [16, 4])
    pl.store(t, [0, 0], out)
    return out


@pl.jit.incore
def short_column(x: pl.Tensor[[4, 64], pl.FP32], out: pl.Out[pl.Tensor[[4, 1], pl.FP32]]):
    t = pl.load(x, [0, 0], [4, 64])
    pl.store(pl.row_sum(t), [0, 0], out)
    return out


@pl.jit
def entry(
    a: pl.Tensor[[64, 64], pl.FP32],
    s: pl.Out[pl.Tensor[[64, 64], pl.FP32]],
    b: pl.Tensor[[256, 256], pl.FP32],
    c: pl.Out[pl.Tensor[[256, 256], pl.FP32]],
    d: pl.Tensor[[16, 4], pl.FP32],
    e: pl.Out[pl.Tensor[[16, 4], pl.FP32]],
    f: pl.Tensor[[4, 64], pl.FP32],
    g: pl.Out[pl.Tensor[[4, 1], pl.FP32]],
):
    s = sines(a, s)
    c = too_big(b, c)
    e = narrow(d, e)
    g = short_column(f, g)
    return s, c, e, g
