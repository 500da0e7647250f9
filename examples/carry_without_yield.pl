# A loop with `init_values=` whose body has no `pl.yield_` (PyPTO's parser reads it; only a
# bare `pl.yield_(...)` is refused): each carried name's value at the end of the body goes
# to the next iteration, so reassigning the name updates it, and the loop's results are
# named `<name>_out`, as PyPTO names them. ConvertToSSA gives the loop its explicit yield.
import pypto.language as pl


@pl.program
class CarryWithoutYield:
    @pl.function
    def main(
        self, x: pl.Tensor[[64], pl.FP32], out: pl.Out[pl.Tensor[[64], pl.FP32]]
    ) -> pl.Tensor[[64], pl.FP32]:
        for i, (acc, unchanged) in pl.range(4, init_values=(x, x)):
            acc = pl.add(acc, 1.0)
        out = pl.assemble(out, pl.sub(acc_out, unchanged_out), [0])
        return out
