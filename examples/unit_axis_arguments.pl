# A tensor argument whose shape differs from the parameter's only by extent-1 axes: a
# `[1, 2, 8]` window of a 3-D output passed where a function takes a `[2, 8]` tensor. It
# holds the same elements in the same order, so plc takes it (PyPTO's parser checks only
# the argument count of such a call); another shape or dtype stays E0217.
import pypto.language as pl


@pl.program
class UnitAxes:
    @pl.function(type=pl.FunctionType.InCore)
    def compute(
        self,
        x: pl.Tensor[[4, 16], pl.FP32],
        out: pl.Out[pl.Tensor[[2, 8], pl.FP32]],
    ) -> pl.Tensor[[2, 8], pl.FP32]:
        t: pl.Tile[[2, 8], pl.FP32] = pl.load(x, [0, 0], [2, 8])
        out_1: pl.Tensor[[2, 8], pl.FP32] = pl.store(pl.mul(t, 2.0), [0, 0], out)
        return out_1

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        x: pl.Tensor[[4, 16], pl.FP32],
        out: pl.Out[pl.Tensor[[2, 4, 16], pl.FP32]],
    ) -> pl.Tensor[[2, 4, 16], pl.FP32]:
        for b in pl.range(2):
            for r in pl.range(2):
                for c in pl.range(2):
                    chunk: pl.Tensor[[1, 2, 8], pl.FP32] = pl.slice(out, [1, 2, 8], [b, r * 2, c * 8])
                    _chunk_ret: pl.Tensor[[2, 8], pl.FP32] = self.compute(x, chunk)
        return out
