# E0210: the annotation of an assignment does not match its value (dtype FP16 vs FP32).
# A 2-D annotation of a 3-D tile load is PyPTO's printed flattening (accepted:
# tests/cases/warnings/flattened_tile_annotations.pl) only when it keeps the element count
# and the dtype, and only of a load or a creation.
import pypto.language as pl


@pl.program
class Bad:
    @pl.function
    def main(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        y: pl.Tensor[[64], pl.FP16] = pl.add(x, x)
        return x

    @pl.function(type=pl.FunctionType.InCore)
    def flat(self, x: pl.Tensor[[2, 3, 4], pl.FP32]) -> pl.Tensor[[2, 3, 4], pl.FP32]:
        count: pl.Tile[[6, 5], pl.FP32] = pl.tile.load(x, [0, 0, 0], [2, 3, 4])
        dtype: pl.Tile[[6, 4], pl.FP16] = pl.tile.load(x, [0, 0, 0], [2, 3, 4])
        t: pl.Tile[[2, 3, 4], pl.FP32] = pl.tile.load(x, [0, 0, 0], [2, 3, 4])
        not_a_load: pl.Tile[[6, 4], pl.FP32] = pl.tile.exp(t)
        return x
