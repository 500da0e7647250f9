# E0219: `init_values=` with a plain loop target: the target must be `i, (acc,)`.
import pypto.language as pl


@pl.program
class Bad:
    @pl.function
    def main(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        init: pl.Tensor[[64], pl.FP32] = pl.add(x, x)
        for i in pl.range(5, init_values=(init,)):
            pass
        return init
