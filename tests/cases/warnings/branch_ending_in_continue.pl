# A value assigned in one branch of an `if` whose other branch ends in `continue` (or
# `break`, `return`) has a value wherever it is read after the `if`: ConvertToSSA gives the
# jumping branch a stand-in no path reads, as PyPTO's LowerBreakContinue tests write it.
import pypto.language as pl


@pl.program
class Guarded:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self, x_0: pl.Tensor[[64], pl.FP32], out: pl.Out[pl.Tensor[[64], pl.FP32]]
    ) -> pl.Tensor[[64], pl.FP32]:
        x = pl.load(x_0, [0], [64])
        for i in pl.range(0, 10, 1):
            if i > 5:
                y = pl.add(x, x)
            else:
                continue
            x = y
        for j in pl.range(0, 4, 1):
            if j < 2:
                break
            else:
                z = pl.mul(x, x)
            x = z
        out = pl.store(x, [0], out)
        return out
