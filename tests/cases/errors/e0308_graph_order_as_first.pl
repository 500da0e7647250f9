# Order of the pl.graph checks: `with pl.graph(4) as g:` inside `pl.at` breaks three rules
# (the `as` clause, the enclosing device scope, a name that is not a string literal).
# Only the first in PyPTO's order is reported: the `as` clause (E0308).
import pypto.language as pl


@pl.program
class Bad:
    @pl.function
    def main(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP):
            with pl.graph(4) as g:
                y: pl.Tensor[[64], pl.FP32] = pl.add(x, x)
        return y
