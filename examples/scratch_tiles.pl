# Scratch tiles (issue 11): ops whose hardware form may use a caller-owned scratch tile take
# it as PyPTO does, and hold no result in it, so the CPU forms compute what the forms without
# it compute. `pl.row_expand_add(tile, row_vec, tmp)` (also `pl.tile.row_expand_add(...,
# tmp=t)`; the tensor form takes none): each row of the tile plus its row's value;
# `pl.tile.rsqrt(tile, tmp=t)` (or positionally), PyPTO's precise reciprocal square root.
import pypto.language as pl


@pl.program
class ScratchTiles:
    @pl.function(type=pl.FunctionType.InCore)
    def shift_rows(
        self,
        x: pl.Tensor[[16, 32], pl.FP32],
        rv: pl.Tensor[[16, 1], pl.FP32],
        out: pl.Out[pl.Tensor[[16, 32], pl.FP32]],
    ) -> pl.Tensor[[16, 32], pl.FP32]:
        t = pl.load(x, [0, 0], [16, 32])
        r = pl.load(rv, [0, 0], [16, 1])
        tmp = pl.tile.create([16, 32], dtype=pl.FP32, target_memory=pl.MemorySpace.Vec)
        once = pl.row_expand_add(t, r, tmp)
        twice = pl.tile.row_expand_add(once, r, tmp=tmp)
        positive = pl.tile.adds(pl.tile.abs(twice), 1.0)
        inv = pl.tile.rsqrt(positive, tmp=tmp)
        again = pl.tile.rsqrt(inv, tmp)
        return pl.store(again, [0, 0], out)

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        x: pl.Tensor[[16, 32], pl.FP32],
        rv: pl.Tensor[[16, 1], pl.FP32],
        out: pl.Out[pl.Tensor[[16, 32], pl.FP32]],
    ) -> pl.Tensor[[16, 32], pl.FP32]:
        out = self.shift_rows(x, rv, out)
        return out
