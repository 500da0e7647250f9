# The factory's `assert` is false for the call `main()` makes: E0232 at the assert.
import pypto.language as pl


def Build(cols: int = 32):
    assert cols % 16 == 0, "cols must be a multiple of 16"

    @pl.program
    class P:
        @pl.function(type=pl.FunctionType.Orchestration)
        def main(self, x: pl.Tensor[[16, cols], pl.FP32], out: pl.Out[pl.Tensor[[16, cols], pl.FP32]]):
            out = pl.add(x, out)
            return out

    return P


if __name__ == "__main__":
    Build(cols=24)
