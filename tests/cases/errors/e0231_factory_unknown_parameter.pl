# The call `main()` makes names a parameter the factory does not have: E0231 at the argument.
import pypto.language as pl


def Build(batch: int, cols: int = 32):
    @pl.program
    class P:
        @pl.function(type=pl.FunctionType.Orchestration)
        def main(self, x: pl.Tensor[[batch, cols], pl.FP32], out: pl.Out[pl.Tensor[[batch, cols], pl.FP32]]):
            out = pl.add(x, out)
            return out

    return P


def main():
    program = Build(batch=2, colz=64)
