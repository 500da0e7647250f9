# The forms ConvertToSSA rewrites, written in plain style (no `init_values=`, no
# `pl.yield_`): a straight-line reassignment, a loop-carried accumulator
# (`acc = pl.add(acc, ...)` in a `pl.range` loop), an `if` inside a loop whose branches
# change different variables, a value first assigned inside a loop and read after it
# (it starts from the Out parameter of the same type), a reassignment inside
# `with pl.at(level=pl.Level.CORE_GROUP):` read after the scope, and a `while` loop.
import pypto.language as pl

N = 64
STEPS = 4


@pl.program
class SsaForms:
    @pl.function
    def accumulate(
        self,
        x: pl.Tensor[[N, N], pl.FP32],
        out: pl.Out[pl.Tensor[[N, N], pl.FP32]],
    ) -> pl.Tensor[[N, N], pl.FP32]:
        y = pl.add(x, 1.0)
        y = pl.mul(y, 2.0)
        acc = pl.create_tensor([N, N], dtype=pl.FP32, init_value=0.0)
        for i in pl.range(STEPS):
            acc = pl.add(acc, y)
        for j in pl.range(STEPS):
            last = pl.mul(acc, 0.5)
        out = pl.add(last, acc)
        return out

    @pl.function
    def count_parity(self, n: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INDEX]:
        evens = 0
        odds = 0
        for k in pl.range(n):
            if k % 2 == 0:
                evens = evens + k
            else:
                odds = odds + 1
        width = 1
        while width < evens + odds:
            width = width * 2
        return width

    @pl.function(type=pl.FunctionType.Orchestration)
    def scaled_copy(
        self,
        x: pl.Tensor[[N, N], pl.FP32],
        out: pl.Out[pl.Tensor[[N, N], pl.FP32]],
    ) -> pl.Tensor[[N, N], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP):
            t = pl.load(x, [0, 0], [N, N])
            t = pl.mul(t, 2.0)
            out = pl.store(t, [0, 0], out)
        return out
