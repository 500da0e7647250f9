# E0203: an op's operands may be passed by the names of its parameters (`pl.add(lhs=a,
# rhs=b)`); a keyword that names none of them is refused.
import pypto.language as pl


@pl.program
class Prog:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, x: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        t = pl.load(x, [0, 0], [16, 16])
        s = pl.add(lhs=t, other=t)
        out = pl.store(s, [0, 0], out)
        return out
