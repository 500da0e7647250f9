# A scalar reassigned inside a device region in a loop and never read after it. SSA carries
# `last_row` through both loops (its value before the loop is the init), so the region's
# value looks read after the region, by the outer loop's yield. Only dead carries read it:
# the outlining passes drop the carries, and the scalar stays in the kernel (a device
# kernel cannot return a scalar; one really read after the region is E0410).
import pypto.language as pl

N = 16
TILE = 4


@pl.program
class DeadScalarCarry:
    @pl.function(type=pl.FunctionType.AIV)
    def copy_twice(
        self,
        x: pl.Tensor[[N, N], pl.FP32],
        out_b: pl.Out[pl.Tensor[[N, N], pl.FP32]],
        out_c: pl.Out[pl.Tensor[[N, N], pl.FP32]],
    ) -> tuple[pl.Tensor[[N, N], pl.FP32], pl.Tensor[[N, N], pl.FP32]]:
        t: pl.Tile[[N, N], pl.FP32] = pl.load(x, [0, 0], [N, N])
        out_b = pl.store(t, [0, 0], out_b)
        out_c = pl.store(pl.add(t, t), [0, 0], out_c)
        return out_b, out_c

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        x: pl.Tensor[[N, N], pl.FP32],
        out_b: pl.Out[pl.Tensor[[N, N], pl.FP32]],
        out_c: pl.Out[pl.Tensor[[N, N], pl.FP32]],
        row_start: pl.Scalar[pl.INDEX],
    ) -> tuple[pl.Tensor[[N, N], pl.FP32], pl.Tensor[[N, N], pl.FP32]]:
        last_row = row_start
        for batch in pl.parallel(0, N // TILE):
            with pl.at(level=pl.Level.CORE_GROUP, name_hint="band"):
                for inner in pl.range(TILE):
                    last_row = batch * TILE + inner  # noqa: F841
                    out_b, out_c = self.copy_twice(x, out_b, out_c)
        return out_b, out_c
