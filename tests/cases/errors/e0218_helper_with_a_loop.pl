# A helper a factory calls is evaluated at compile time: a loop in it is E0218, at the loop.
import pypto.language as pl


def _total(n):
    t = 0
    for i in range(n):
        t = t + i
    return t


def Build(n: int = 4):
    rows = _total(n)

    @pl.program
    class P:
        @pl.function(type=pl.FunctionType.Orchestration)
        def main(self, x: pl.Tensor[[rows, 16], pl.FP32], out: pl.Out[pl.Tensor[[rows, 16], pl.FP32]]):
            out = pl.add(x, out)
            return out

    return P
