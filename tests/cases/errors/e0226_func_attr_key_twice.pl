# E0226: pl.func_attr sets each key once, within one dict and across the directives.
import pypto.language as pl


@pl.program
class Attrs:
    @pl.function(type=pl.FunctionType.InCore)
    def one_dict(self, a: pl.Tensor[[16], pl.FP32], b: pl.Out[pl.Tensor[[16], pl.FP32]]) -> pl.Tensor[[16], pl.FP32]:
        pl.func_attr({"slot_num": 2, "slot_num": 4})
        t = pl.load(a, [0], [16])
        b = pl.store(t, [0], b)
        return b

    @pl.function(type=pl.FunctionType.InCore)
    def two_dicts(self, a: pl.Tensor[[16], pl.FP32], b: pl.Out[pl.Tensor[[16], pl.FP32]]) -> pl.Tensor[[16], pl.FP32]:
        pl.func_attr({"slot_num": 2})
        pl.func_attr({"slot_num": 2})
        t = pl.load(a, [0], [16])
        b = pl.store(t, [0], b)
        return b
