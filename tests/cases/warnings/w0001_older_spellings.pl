# W0001: older spellings PyPTO no longer accepts still lower, each with a warning naming
# today's spelling. `pl.tile.max(a, b)` of two scalars is today's scalar maximum: no warning.
import pypto.language as pl


@pl.program
class Older:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[16, 32], pl.FP32],
        y: pl.Out[pl.Tensor[[16, 32], pl.FP32]],
        n: pl.Scalar[pl.INDEX],
    ) -> pl.Tensor[[16, 32], pl.FP32]:
        a = pl.load(x, [0, 0], [16, 32])
        b = pl.op.block.add(a, a)
        m = pl.tile.max(b, axis=1, keepdim=True)
        k: pl.Scalar[pl.INDEX] = pl.tile.max(n, 4)
        j: pl.Scalar[pl.INDEX] = pl.scalar.min(n, k)
        c = pl.row_expand_sub(b, m)
        y = pl.store(c, [j, 0], y)
        return y

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[16, 32], pl.FP32]) -> pl.Tensor[[16, 1], pl.FP32]:
        t = pl.create([16, 32], pl.FP32)
        t = self.kernel(x, t, 0)
        s = pl.tensor.sum(t, axis=-1)
        return s
