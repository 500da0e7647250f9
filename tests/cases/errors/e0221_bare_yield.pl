# E0221: a bare `pl.yield_(...)` does not say which names receive the values. A bare
# `pl.yield_()` with no value, in a loop that carries none, yields nothing and is accepted.
import pypto.language as pl


@pl.program
class Bad:
    @pl.function
    def main(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        init: pl.Tensor[[64], pl.FP32] = pl.add(x, x)
        for i, (acc,) in pl.range(4, init_values=(init,)):
            nxt = pl.add(acc, x)
            pl.yield_(nxt)
        for j in pl.range(2):
            if j > 0:
                pl.yield_()
            pl.yield_()
        return init
