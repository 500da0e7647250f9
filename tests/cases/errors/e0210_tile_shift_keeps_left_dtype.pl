# E0210: `tile.shl`/`tile.shr` of two tiles keep the left operand's dtype (ops.md §2.3:
# "Tile[bcast], lhs dtype"), so a UINT16 tile shifted by UINT32 counts is UINT16, and an
# annotation of the promoted UINT32 does not match; `and_` promotes the two dtypes.
import pypto.language as pl


@pl.program
class Shifts:
    @pl.function(type=pl.FunctionType.InCore)
    def main(
        self,
        a: pl.Tensor[[16, 16], pl.UINT16],
        b: pl.Tensor[[16, 16], pl.UINT32],
        output: pl.Out[pl.Tensor[[16, 16], pl.UINT16]],
    ) -> pl.Tensor[[16, 16], pl.UINT16]:
        tile_a: pl.Tile[[16, 16], pl.UINT16] = pl.load(a, [0, 0], [16, 16])
        tile_b: pl.Tile[[16, 16], pl.UINT32] = pl.load(b, [0, 0], [16, 16])
        left: pl.Tile[[16, 16], pl.UINT16] = pl.shl(tile_a, tile_b)
        right: pl.Tile[[16, 16], pl.UINT16] = pl.tile.shr(tile_a, tile_b)
        both: pl.Tile[[16, 16], pl.UINT32] = pl.tile.and_(tile_a, tile_b)
        wrong: pl.Tile[[16, 16], pl.UINT32] = pl.shl(tile_a, tile_b)
        return pl.store(right, [0, 0], output)
