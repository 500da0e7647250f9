# Loop-carried values and branch results in the explicit SSA style that ConvertToSSA also
# produces: `for i, (acc,) in pl.range(..., init_values=(...))` ended by `pl.yield_`, an
# unrolled loop reassigning a tile (`pl.unroll` takes no init_values; ConvertToSSA threads
# the tile through it), an `if`/`else` whose branches yield the result, and a
# `pl.parallel` loop over independent row bands.
import pypto.language as pl

N = 64
STEPS = 8
ROWS = 256
BAND = 64


@pl.program
class CarriedValues:
    @pl.function(type=pl.FunctionType.InCore)
    def cube_tile(
        self,
        x: pl.Tensor[[N, N], pl.FP32],
        out: pl.Out[pl.Tensor[[N, N], pl.FP32]],
    ) -> pl.Tensor[[N, N], pl.FP32]:
        t: pl.Tile[[N, N], pl.FP32] = pl.load(x, [0, 0], [N, N])
        power = t
        for k in pl.unroll(0, 2, 1):
            power = pl.mul(power, t)
        out = pl.store(power, [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.InCore)
    def add_or_sub(
        self,
        a: pl.Tensor[[N, N], pl.FP32],
        b: pl.Tensor[[N, N], pl.FP32],
        subtract: pl.Scalar[pl.BOOL],
        out: pl.Out[pl.Tensor[[N, N], pl.FP32]],
    ) -> pl.Tensor[[N, N], pl.FP32]:
        ta = pl.load(a, [0, 0], [N, N])
        tb = pl.load(b, [0, 0], [N, N])
        if subtract:
            r = pl.yield_(pl.sub(ta, tb))
        else:
            r = pl.yield_(pl.add(ta, tb))
        out = pl.store(r, [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        x: pl.Tensor[[N, N], pl.FP32],
        y: pl.Tensor[[ROWS, N], pl.FP32],
        cubed: pl.Out[pl.Tensor[[N, N], pl.FP32]],
        combined: pl.Out[pl.Tensor[[N, N], pl.FP32]],
        scaled: pl.Out[pl.Tensor[[ROWS, N], pl.FP32]],
    ) -> tuple[
        pl.Tensor[[N, N], pl.FP32],
        pl.Tensor[[N, N], pl.FP32],
        pl.Tensor[[ROWS, N], pl.FP32],
    ]:
        init: pl.Tensor[[N, N], pl.FP32] = pl.create_tensor([N, N], dtype=pl.FP32, init_value=0.0)
        for i, (acc,) in pl.range(0, STEPS, 1, init_values=(init,)):
            with pl.at(level=pl.Level.CORE_GROUP, name_hint="accumulate_step"):
                nxt: pl.Tensor[[N, N], pl.FP32] = pl.add(acc, x)
            total = pl.yield_(nxt)
        cubed = self.cube_tile(total, cubed)
        combined = self.add_or_sub(cubed, x, True, combined)
        for r in pl.parallel(0, ROWS, BAND):
            with pl.at(level=pl.Level.CORE_GROUP, name_hint="scale_band"):
                band = pl.load(y, [r, 0], [BAND, N])
                pl.store(pl.mul(band, 3.0), [r, 0], scaled)
        return cubed, combined, scaled
