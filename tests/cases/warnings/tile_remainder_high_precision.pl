# `high_precision=` on `pl.tile.rem` and `pl.tile.fmod` (newer than the reference; PyPTO's
# system tests of the remainder family use it) selects the precise instruction form; the
# value computed is the same, so plc accepts the flag and keeps it as an attribute.
import pypto.language as pl

R = 8
C = 32


@pl.program
class Remainders:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[R, C], pl.FP32],
        y: pl.Tensor[[R, C], pl.FP32],
        out: pl.InOut[pl.Tensor[[2 * R, C], pl.FP32]],
    ) -> pl.Tensor[[2 * R, C], pl.FP32]:
        a = pl.load(x, [0, 0], [R, C])
        b = pl.load(y, [0, 0], [R, C])
        scratch: pl.Tile[[2, C], pl.FP32] = pl.tile.create([2, C], dtype=pl.FP32, target_memory=pl.MemorySpace.Vec)
        out = pl.store(pl.tile.rem(a, b, scratch, high_precision=True), [0, 0], out)
        out = pl.store(pl.tile.fmod(a, b, high_precision=False), [R, 0], out)
        return out
