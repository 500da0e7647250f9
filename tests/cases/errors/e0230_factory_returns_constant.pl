# A program factory returns one of its `@pl.` definitions: returning a size is E0230.
import pypto.language as pl


def Build(n: int = 4):
    rows = n * 16

    @pl.program
    class P:
        @pl.function(type=pl.FunctionType.Orchestration)
        def main(self, x: pl.Tensor[[rows, 16], pl.FP32], out: pl.Out[pl.Tensor[[rows, 16], pl.FP32]]):
            out = pl.add(x, out)
            return out

    return rows
