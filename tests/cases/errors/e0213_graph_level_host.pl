# E0213: `@pl.function(type=pl.FunctionType.Graph, level=pl.Level.HOST)` — a Graph function
# runs at level CHIP; an explicit other level conflicts.
import pypto.language as pl


@pl.program
class Bad:
    @pl.function(type=pl.FunctionType.Graph, level=pl.Level.HOST)
    def layer(self, x: pl.InOut[pl.Tensor[[64, 64], pl.FP32]]) -> pl.Tensor[[64, 64], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP):
            t: pl.Tile[[64, 64], pl.FP32] = pl.load(x, [0, 0], [64, 64])
            pl.store(t, [0, 0], x)
        return x
