# `return self.proj(...)` of an Inline function that returns two values: the caller
# returns both (lowering reads the call's tuple into a temporary and returns its
# elements), and InlineFunctions splices the body in its place.
import pypto.language as pl

LEN = 64


@pl.program
class TupleReturn:
    @pl.function(type=pl.FunctionType.Inline)
    def proj(
        self,
        x: pl.Tensor[[LEN], pl.FP32],
        o0: pl.Out[pl.Tensor[[LEN], pl.FP32]],
        o1: pl.Out[pl.Tensor[[LEN], pl.FP32]],
    ) -> tuple[pl.Tensor[[LEN], pl.FP32], pl.Tensor[[LEN], pl.FP32]]:
        with pl.at(level=pl.Level.CORE_GROUP):
            o0[:] = pl.add(x, 1.0)
            o1[:] = pl.mul(x, 2.0)
        return o0, o1

    @pl.function
    def main(
        self,
        a: pl.Tensor[[LEN], pl.FP32],
        q: pl.Out[pl.Tensor[[LEN], pl.FP32]],
        k: pl.Out[pl.Tensor[[LEN], pl.FP32]],
    ) -> tuple[pl.Tensor[[LEN], pl.FP32], pl.Tensor[[LEN], pl.FP32]]:
        return self.proj(a, q, k)
