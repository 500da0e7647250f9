# E0221: a `pl.yield_` that is not the last statement of its loop body.
import pypto.language as pl


@pl.program
class Bad:
    @pl.function
    def main(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        init: pl.Tensor[[64], pl.FP32] = pl.add(x, x)
        for i, (acc,) in pl.range(4, init_values=(init,)):
            result = pl.yield_(acc)
            nxt = pl.add(acc, x)
        return init
