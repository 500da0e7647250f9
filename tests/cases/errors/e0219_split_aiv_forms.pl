# The forms of `for lane in pl.split_aiv(n, mode=...)` PyPTO refuses (ops.md §2.9): n other
# than 2, no mode=, a split_aiv loop inside another, and break in its body.
import pypto.language as pl


@pl.program
class Lanes:
    @pl.function(type=pl.FunctionType.InCore)
    def four(self, a: pl.Tensor[[64], pl.FP32], out: pl.Out[pl.Tensor[[64], pl.FP32]]) -> pl.Tensor[[64], pl.FP32]:
        for lane in pl.split_aiv(4, mode=pl.SplitMode.UP_DOWN):
            out = pl.store(pl.load(a, [0], [64]), [0], out)
        return out

    @pl.function(type=pl.FunctionType.InCore)
    def no_mode(self, a: pl.Tensor[[64], pl.FP32], out: pl.Out[pl.Tensor[[64], pl.FP32]]) -> pl.Tensor[[64], pl.FP32]:
        for lane in pl.split_aiv(2):
            out = pl.store(pl.load(a, [0], [64]), [0], out)
        return out

    @pl.function(type=pl.FunctionType.InCore)
    def nested(self, a: pl.Tensor[[64], pl.FP32], out: pl.Out[pl.Tensor[[64], pl.FP32]]) -> pl.Tensor[[64], pl.FP32]:
        for lane in pl.split_aiv(2, mode=pl.SplitMode.NONE):
            for inner in pl.split_aiv(2, mode=pl.SplitMode.NONE):
                out = pl.store(pl.load(a, [0], [64]), [0], out)
        return out

    @pl.function(type=pl.FunctionType.InCore)
    def leaves(self, a: pl.Tensor[[64], pl.FP32], out: pl.Out[pl.Tensor[[64], pl.FP32]]) -> pl.Tensor[[64], pl.FP32]:
        for lane in pl.split_aiv(2, mode=pl.SplitMode.NONE):
            out = pl.store(pl.load(a, [0], [64]), [0], out)
            break
        return out
