# E0217: PyPTO's per-op checks of index lists and axes: one index per dimension for
# read/write, an axis in range for dim and the axis reductions, a slice offset as long as
# its shape, 2-D concat operands of one dtype and row count, and equal static K extents
# of a 2-D tensor matmul.
import pypto.language as pl


@pl.program
class Ranges:
    @pl.function(type=pl.FunctionType.Orchestration)
    def tensors(
        self, a: pl.Tensor[[16, 32], pl.FP32], b: pl.Tensor[[8, 32], pl.FP32], h: pl.Tensor[[16, 8], pl.FP16]
    ) -> pl.Tensor[[16, 32], pl.FP32]:
        x = pl.tensor.read(a, [0])
        pl.tensor.write(a, [0, 0, 0], 1.0)
        d = pl.tensor.dim(a, -3)
        s = pl.slice(a, [8, 32], [0])
        c1 = pl.concat(a, b)
        c2 = pl.concat(a, h)
        m = pl.matmul(a, b)
        fine = pl.matmul(a, b, b_trans=True)
        return a

    @pl.function(type=pl.FunctionType.InCore)
    def tiles(
        self, a: pl.Tensor[[16, 32], pl.FP32], out: pl.Out[pl.Tensor[[16, 32], pl.FP32]]
    ) -> pl.Tensor[[16, 32], pl.FP32]:
        t = pl.load(a, [0, 0], [16, 32])
        y = pl.tile.read(t, [0, 0, 0])
        pl.tile.write(t, [0], 1.0)
        z = pl.tile.slice(t, [8, 8], [0, 0, 0])
        out = pl.store(t, [0, 0], out)
        return out
