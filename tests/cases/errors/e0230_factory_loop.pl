# A program factory is evaluated at compile time: a `for` loop in it is E0230, at the loop.
import pypto.language as pl


def Build(n: int = 4):
    total = 0
    for i in range(n):
        total = total + i

    @pl.program
    class P:
        @pl.function(type=pl.FunctionType.Orchestration)
        def main(self, x: pl.Tensor[[n, 16], pl.FP32], out: pl.Out[pl.Tensor[[n, 16], pl.FP32]]):
            out = pl.add(x, out)
            return out

    return P
