# E0226: a key set by @pl.function(attrs={...}) is not set again by pl.func_attr.
import pypto.language as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore, attrs={"split": pl.SplitMode.UP_DOWN})
    def kernel(self, x: pl.Tensor[[64], pl.FP32], out: pl.Out[pl.Tensor[[64], pl.FP32]]):
        pl.func_attr({"split": pl.SplitMode.LEFT_RIGHT})
        out[0:64] = x[0:64]
