# Half-precision tensors end to end. The inputs and the output are FP16: the
# interpreter rounds each result to its precision, the CPU runtime stores the 16-bit
# formats, and the harness converts the inputs it draws, so `plc run` and the built
# program print the same lines.
# A tensor op with a float literal computes in the promoted dtype: the literal is FP32, so
# `pl.mul(x, 0.1)` of an FP16 tensor is FP32 (a tile op keeps its tile's dtype).
import pypto.language as pl

ROWS = 16
COLS = 32


@pl.jit
def blend(
    x: pl.Tensor[[ROWS, COLS], pl.FP16],
    y: pl.Tensor[[ROWS, COLS], pl.FP16],
    out: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP16]],
):
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="blend_tiles"):
        a = pl.load(x, [0, 0], [ROWS, COLS])
        b = pl.load(y, [0, 0], [ROWS, COLS])
        pl.store(pl.add(pl.mul(a, 0.5), b), [0, 0], out)
    return out


@pl.jit
def widen(
    x: pl.Tensor[[ROWS, COLS], pl.FP16],
    out: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
):
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="scale_widen"):
        scaled: pl.Tensor[[ROWS, COLS], pl.FP32] = pl.mul(x, 0.1)
        out[:] = pl.sub(scaled, x)
    return out
