# BF16 tiles computed op by op (issue 15, item 12). Two differences made `plc run` and
# the harness print different sums: `plc run` kept its drawn inputs unrounded in a BF16
# tensor (the harness stores them as BF16), and the CPU tile library held BF16 tiles as
# float and rounded only when storing, while the vector unit (and `plc run`) rounds each
# instruction's result. tests/compile.rs builds both entries and compares them with
# `plc run`.
import pypto.language as pl

ROWS = 16
COLS = 32


@pl.jit
def blend(
    x: pl.Tensor[[ROWS, COLS], pl.BF16],
    y: pl.Tensor[[ROWS, COLS], pl.BF16],
    out: pl.Out[pl.Tensor[[ROWS, COLS], pl.BF16]],
):
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="blend_tiles"):
        a = pl.load(x, [0, 0], [ROWS, COLS])
        b = pl.load(y, [0, 0], [ROWS, COLS])
        pl.store(pl.add(pl.mul(a, 0.5), b), [0, 0], out)
    return out


@pl.jit
def mixed(
    x: pl.Tensor[[ROWS, COLS], pl.BF16],
    y: pl.Tensor[[ROWS, COLS], pl.FP16],
    out: pl.Out[pl.Tensor[[ROWS, COLS], pl.BF16]],
):
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="mix"):
        a = pl.cast(pl.load(x, [0, 0], [ROWS, COLS]), pl.FP32)
        b = pl.cast(pl.load(y, [0, 0], [ROWS, COLS]), pl.FP32)
        c = pl.exp(pl.div(pl.mul(a, b), 3.0))
        h = pl.cast(pl.row_expand_add(c, pl.row_sum(c)), pl.FP16)
        pl.store(pl.cast(pl.sub(h, pl.mul(h, 0.25)), pl.BF16), [0, 0], out)
    return out
