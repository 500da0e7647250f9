# E0226: pl.func_attr() must come before every other statement of the body.
import pypto.language as pl


@pl.program
class Prog:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, x: pl.Tensor[[64], pl.FP32], out: pl.Out[pl.Tensor[[64], pl.FP32]]) -> pl.Tensor[[64], pl.FP32]:
        t = pl.load(x, [0], [64])
        pl.func_attr({"slot_num": 2})
        out = pl.store(t, [0], out)
        return out
