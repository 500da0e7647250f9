# FlattenTileNdTo2D's output as PyPTO's printer writes it (its pass tests' Expected
# programs): a `pl.tile.load` or `pl.tile.create` of more than two axes whose annotation
# gives the flattened 2-D shape. The call keeps its N-D operands; PyPTO's parser takes the
# annotation's shape for the variable, and plc reads it as a reshape of the value (same
# dtype, same element count). The store writes the 2-D tile back into the N-D window that
# `shapes=` gives. Another rank or extent in an annotation stays E0210
# (e0210_annotation_mismatch).
import pypto.language as pl


@pl.program
class Flattened:
    @pl.function(type=pl.FunctionType.InCore)
    def main_incore_0(
        self,
        x: pl.Tensor[[2, 3, 4], pl.FP32],
        out_0: pl.Out[pl.Tensor[[2, 3, 4], pl.FP32]],
    ) -> pl.Tensor[[2, 3, 4], pl.FP32]:
        x_tile: pl.Tile[[6, 4], pl.FP32] = pl.tile.load(x, [0, 0, 0], [2, 3, 4], [2, 3, 4])
        zero: pl.Tile[[6, 4], pl.FP32, pl.Mem.Vec] = pl.tile.create([2, 3, 4], dtype=pl.FP32)
        a_tile = pl.tile.exp(x_tile)
        b_tile = pl.tile.add(a_tile, pl.tile.muls(zero, 0.0))
        out_0_1 = pl.tile.store(b_tile, [0, 0, 0], out_0, [2, 3, 4])
        return out_0_1

    @pl.function
    def main(self, x: pl.Tensor[[2, 3, 4], pl.FP32]) -> pl.Tensor[[2, 3, 4], pl.FP32]:
        out_0 = pl.create_tensor([2, 3, 4], dtype=pl.FP32)
        y = self.main_incore_0(x, out_0)
        return y
