# Task launches written by hand. `pl.submit(self.k, ...)` launches a kernel and also
# returns its task id, which a later launch can wait for with `deps=[...]`;
# `pl.spmd_submit` launches an Spmd function on `core_num` blocks; `pl.no_dep(x)` keeps an
# argument out of dependency tracking; `pl.func_attr({...})` sets a kernel's attributes
# (a bare name as a value names a parameter, and follows it through ConvertToSSA).
# The outlining passes print launches in this form, so it must read back the same.
import pypto.language as pl

ROWS = 64
COLS = 128


@pl.program
class Launches:
    @pl.function(type=pl.FunctionType.InCore)
    def scale(
        self,
        x: pl.Tensor[[ROWS, COLS], pl.FP32],
        out: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
    ) -> pl.Tensor[[ROWS, COLS], pl.FP32]:
        pl.func_attr({"slot_num": 2, "stationary": x})
        t = pl.load(x, [0, 0], [ROWS, COLS])
        out = pl.store(pl.mul(t, 2.0), [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.InCore)
    def shift(
        self,
        x: pl.Tensor[[ROWS, COLS], pl.FP32],
        out: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
    ) -> pl.Tensor[[ROWS, COLS], pl.FP32]:
        t = pl.load(x, [0, 0], [ROWS, COLS])
        out = pl.store(pl.add(t, 1.0), [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Spmd)
    def shift_blocks(
        self,
        x: pl.Tensor[[ROWS, COLS], pl.FP32],
        out: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
    ) -> pl.Tensor[[ROWS, COLS], pl.FP32]:
        out = self.shift(x, out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        x: pl.Tensor[[ROWS, COLS], pl.FP32],
        scaled: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
        shifted: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
        both: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
    ) -> tuple[
        pl.Tensor[[ROWS, COLS], pl.FP32],
        pl.Tensor[[ROWS, COLS], pl.FP32],
        pl.Tensor[[ROWS, COLS], pl.FP32],
    ]:
        scaled, first = pl.submit(self.scale, x, scaled)
        shifted, second = pl.spmd_submit(self.shift_blocks, x, shifted, core_num=4, deps=[first])
        both = self.shift(pl.no_dep(scaled), both)
        return scaled, shifted, both
