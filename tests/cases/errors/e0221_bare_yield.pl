# E0221: a bare `pl.yield_(...)` does not say which names receive the values.
import pypto.language as pl


@pl.program
class Bad:
    @pl.function
    def main(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        init: pl.Tensor[[64], pl.FP32] = pl.add(x, x)
        for i, (acc,) in pl.range(4, init_values=(init,)):
            nxt = pl.add(acc, x)
            pl.yield_(nxt)
        return init
