# Scalar work in orchestration code. `main` reads two row counts from a tensor
# (`pl.tensor.read` and a subscript read `lengths[1]`, both cast to INDEX), computes a
# band count with + - * / // % ** and unary minus, clamps it with an `if`/`elif`/`else`
# chain that assigns a name in every branch (conditions built with comparisons, `and`,
# `or`, `not`), finds a shift with a `while` loop, and scales that many row bands.
# `rowwise_exp` takes a tensor whose first dimension is only known at run time
# (`pl.dynamic`).
import pypto.language as pl

ROWS = 256
COLS = 64
TILE = 32
MAX_BANDS = ROWS // TILE
MAX_SHIFT = 2 ** 3
ROWS_DYN = pl.dynamic("ROWS_DYN")
DYN_TILE = 16


@pl.program
class ScalarControl:
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        x: pl.Tensor[[ROWS, COLS], pl.FP32],
        lengths: pl.Tensor[[4], pl.INT32],
        out: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
        which: pl.Scalar[pl.INDEX],
    ) -> pl.Tensor[[ROWS, COLS], pl.FP32]:
        first = pl.cast(pl.tensor.read(lengths, [which % 4]), target_type=pl.INDEX)
        second = pl.cast(lengths[1], target_type=pl.INDEX)
        valid = first + second
        bands = (valid + TILE - 1) // TILE
        if bands > MAX_BANDS:
            count = MAX_BANDS
        elif bands < 1 or -valid >= 0:
            count = 1
        else:
            count = bands
        shift = 0
        while 2 ** shift < count and not shift >= MAX_SHIFT:
            shift = shift + 1
        gain = 1.0 / (shift + 1)
        if gain <= 0.0 or count * TILE > ROWS:
            gain = 1.0
        else:
            pass
        for b in pl.range(count):
            row = b * TILE
            with pl.at(level=pl.Level.CORE_GROUP):
                t = pl.load(x, [row, 0], [TILE, COLS])
                pl.store(pl.mul(t, gain), [row, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def rowwise_exp(
        self,
        x: pl.Tensor[[ROWS_DYN, COLS], pl.FP32],
        out: pl.Out[pl.Tensor[[ROWS_DYN, COLS], pl.FP32]],
    ) -> pl.Tensor[[ROWS_DYN, COLS], pl.FP32]:
        rows = pl.tensor.dim(x, 0)
        for b in pl.range(rows // DYN_TILE):
            with pl.at(level=pl.Level.CORE_GROUP):
                t = pl.load(x, [b * DYN_TILE, 0], [DYN_TILE, COLS])
                pl.store(pl.exp(t), [b * DYN_TILE, 0], out)
        return out
