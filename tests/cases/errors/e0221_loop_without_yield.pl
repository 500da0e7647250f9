# E0221: a loop with `init_values=` whose body does not end in `x = pl.yield_(...)`.
import pypto.language as pl


@pl.program
class Bad:
    @pl.function
    def main(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        init: pl.Tensor[[64], pl.FP32] = pl.add(x, x)
        for i, (acc,) in pl.range(4, init_values=(init,)):
            nxt = pl.add(acc, x)
        return init
