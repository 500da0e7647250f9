# The form PyPTO's printer gives FlattenTileNdTo2D's output: a load of a 3-D region whose
# annotation holds the flattened 2-D shape (the call keeps its 3-D operands), computed on as
# a 2-D tile and stored back into the 3-D window, `shapes=` giving the region. plc reads the
# annotation as a reshape of the loaded tile. `flat` goes through that form and `plain`
# computes the same values on the 3-D tile: the two lines print the same sums (the store of
# the 2-D tile fills the whole 3-D window in row-major order, as the C++ store does).
# run: --entry main
import pypto.language as pl


@pl.program
class Flattened:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[2, 3, 4], pl.FP32],
        flat: pl.Out[pl.Tensor[[2, 3, 4], pl.FP32]],
        plain: pl.Out[pl.Tensor[[2, 3, 4], pl.FP32]],
    ) -> pl.Tensor[[2, 3, 4], pl.FP32]:
        t: pl.Tile[[6, 4], pl.FP32] = pl.tile.load(x, [0, 0, 0], [2, 3, 4], [2, 3, 4])
        u = pl.tile.adds(pl.tile.exp(t), 1.0)
        flat = pl.tile.store(u, [0, 0, 0], flat, [2, 3, 4])
        p: pl.Tile[[2, 3, 4], pl.FP32] = pl.tile.load(x, [0, 0, 0], [2, 3, 4])
        q = pl.tile.adds(pl.tile.exp(p), 1.0)
        plain = pl.tile.store(q, [0, 0, 0], plain)
        return flat

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        x: pl.Tensor[[2, 3, 4], pl.FP32],
        flat: pl.Out[pl.Tensor[[2, 3, 4], pl.FP32]],
        plain: pl.Out[pl.Tensor[[2, 3, 4], pl.FP32]],
    ) -> pl.Tensor[[2, 3, 4], pl.FP32]:
        flat = self.kernel(x, flat, plain)
        return flat
