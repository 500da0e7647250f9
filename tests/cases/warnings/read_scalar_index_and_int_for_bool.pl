# Two forms PyPTO's model examples use (05/07/09 and 06 paged attention): `pl.read` of a
# 1-D tensor with one scalar position (it reads `[i]`), and an integer scalar passed for a
# `pl.Scalar[pl.BOOL]` parameter (`is_first = pl.yield_(1)`).
import pypto.language as pl


@pl.program
class PagedLookup:
    @pl.function(type=pl.FunctionType.InCore)
    def pick(
        self,
        x: pl.Tensor[[16, 64], pl.FP32],
        is_first: pl.Scalar[pl.BOOL],
        out: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        t = pl.load(x, [0, 0], [16, 64])
        if is_first:
            t = pl.mul(t, 2.0)
        pl.store(t, [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        table: pl.Tensor[[8], pl.INT32],
        x: pl.Tensor[[64, 64], pl.FP32],
        out: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        for b in pl.range(2):
            block = pl.read(table, b * 4 + 1)
            if b == 0:
                first = pl.yield_(1)
            else:
                first = pl.yield_(0)
            view = pl.slice(x, [16, 64], [(block % 4) * 16, 0])
            out = self.pick(view, first, out)
        return out
