# E0219: `pl.unroll` takes no `init_values=` (PyPTO: "pl.unroll() cannot be combined with
# init_values"); the body reassigns the names instead and ConvertToSSA threads them.
import pypto.language as pl


@pl.program
class Bad:
    @pl.function
    def main(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        for i, (acc,) in pl.unroll(3, init_values=(x,)):
            acc = pl.add(acc, 1.0)
            acc = pl.yield_(acc)
        return x
