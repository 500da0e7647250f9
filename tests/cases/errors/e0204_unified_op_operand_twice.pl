# E0204: `pl.add(t, lhs=t)` gives the first operand twice, by position and by name.
import pypto.language as pl


@pl.program
class Prog:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, x: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        t = pl.load(x, [0, 0], [16, 16])
        s = pl.add(t, lhs=t)
        out = pl.store(s, [0, 0], out)
        return out
