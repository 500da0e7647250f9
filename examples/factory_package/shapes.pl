# A program factory in a module of its own: compiled alone, it has no call that gives
# `rows` (N0005); `model.pl` imports it and calls it.
import pypto.language as pl


def BuildResidual(rows: int, cols: int = 32):
    """out = x + y over a [rows, cols] tensor, one tile of 16 rows at a time."""
    tiles = rows // 16
    assert rows % 16 == 0, "rows must be a multiple of 16"

    @pl.program
    class Residual:
        @pl.function(type=pl.FunctionType.InCore)
        def add_tile(
            self,
            x: pl.Tensor[[rows, cols], pl.FP32],
            y: pl.Tensor[[rows, cols], pl.FP32],
            row: pl.Scalar[pl.INDEX],
            out: pl.Out[pl.Tensor[[rows, cols], pl.FP32]],
        ) -> pl.Tensor[[rows, cols], pl.FP32]:
            a = pl.load(x, [row, 0], [16, cols])
            b = pl.load(y, [row, 0], [16, cols])
            out = pl.store(pl.add(a, b), [row, 0], out)
            return out

        @pl.function(type=pl.FunctionType.Orchestration)
        def residual(
            self,
            x: pl.Tensor[[rows, cols], pl.FP32],
            y: pl.Tensor[[rows, cols], pl.FP32],
            out: pl.Out[pl.Tensor[[rows, cols], pl.FP32]],
        ) -> pl.Tensor[[rows, cols], pl.FP32]:
            for t in pl.range(tiles):
                out = self.add_tile(x, y, t * 16, out)
            return out

    return Residual
