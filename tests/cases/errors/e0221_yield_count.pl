# E0221: two names receive the one value of a `pl.yield_`.
import pypto.language as pl


@pl.program
class Bad:
    @pl.function
    def main(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        init: pl.Tensor[[64], pl.FP32] = pl.add(x, x)
        for i, (acc,) in pl.range(4, init_values=(init,)):
            nxt = pl.add(acc, x)
            r1, r2 = pl.yield_(nxt)
        return init
