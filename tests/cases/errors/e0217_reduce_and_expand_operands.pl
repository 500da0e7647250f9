# E0217: a tile row reduction takes an input of at least 2 dimensions and a tmp_tile at
# least as large; a row expansion takes a row vector with the operand's rows, and at
# tensor level a column expansion a column vector with the operand's columns.
import pypto.language as pl


@pl.program
class Operands:
    @pl.function(type=pl.FunctionType.InCore)
    def tiles(
        self, a: pl.Tensor[[16, 32], pl.FP32], v: pl.Tensor[[16], pl.FP32], out: pl.Out[pl.Tensor[[16, 32], pl.FP32]]
    ) -> pl.Tensor[[16, 32], pl.FP32]:
        t = pl.load(a, [0, 0], [16, 32])
        rows = pl.load(a, [0, 0], [16, 1])
        fine = pl.tile.row_expand_mul(t, rows)
        small = pl.load(a, [0, 0], [8, 32])
        tmp_small = pl.tile.row_sum(t, small)
        line = pl.load(v, [0], [16])
        one_dim = pl.tile.row_sum(line, line)
        half = pl.load(a, [0, 0], [8, 1])
        bad_rows = pl.tile.row_expand_mul(t, half)
        out = pl.store(t, [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def tensors(self, a: pl.Tensor[[16, 32], pl.FP32], c: pl.Tensor[[1, 8], pl.FP32]) -> pl.Tensor[[16, 32], pl.FP32]:
        bad_cols = pl.tensor.col_expand_mul(a, c)
        return a
