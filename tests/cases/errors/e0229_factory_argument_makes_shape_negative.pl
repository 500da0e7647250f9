# The call in `main()` makes a size negative: E0229 at each annotation that uses it (with the
# call as a secondary label in the human format).
import pypto.language as pl


def Build(batch: int, heads: int = 4):
    rows = batch * heads

    @pl.program
    class P:
        @pl.function(type=pl.FunctionType.Orchestration)
        def main(self, x: pl.Tensor[[rows, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]):
            out = pl.add(x, out)
            return out

    return P


def main():
    batch = 1 - 2
    Build(batch)
