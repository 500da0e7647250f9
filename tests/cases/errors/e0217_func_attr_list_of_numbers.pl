# A list-valued function attribute holds variables (or argument directions); a list of
# numbers has no attribute type in PyPTO (E0217). A list of parameters is fine.
import pypto.language as pl


@pl.program
class Attrs:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, a: pl.Tensor[[16], pl.FP32], b: pl.Tensor[[16], pl.FP32], out: pl.Out[pl.Tensor[[16], pl.FP32]]):
        pl.func_attr({"pinned": [a, b]})
        pl.func_attr({"blocks": [4, 4]})
        out[0:16] = a[0:16]
