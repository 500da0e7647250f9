# A tile popped without shape= and dtype= takes the type of its target's annotation; the
# printed IR keeps that annotation (`e: pl.Tile[...] = pl.system.tpop_from_aiv(split=0)`),
# so the tile ops after it check again when the printed program is read back.
import pypto.language as pl


@pl.program
class Popped:
    @pl.function(type=pl.FunctionType.AIC)
    def cube(self, w: pl.Tensor[[64, 64], pl.FP32], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        e: pl.Tile[[16, 64], pl.FP32, pl.Mem.Left] = pl.tile.tpop_from_aiv(split=0)
        wm: pl.Tile[[64, 64], pl.FP32, pl.Mem.Mat] = pl.tile.load(w, [0, 0], [64, 64], target_memory=pl.Mem.Mat)
        wr: pl.Tile[[64, 64], pl.FP32, pl.Mem.Right] = pl.tile.move(wm, target_memory=pl.Mem.Right)
        acc = pl.tile.matmul(e, wr)
        out = pl.tile.store(acc, [0, 0], out)
        return out
