# A call's results kept whole and passed on, as PyPTO's own tests write them
# (tests/ut/language/parser/test_manual_scope_parsing.py): `res = pl.submit(...)` then
# `return res`, which lowering makes `tmp = res` and `return tmp[0], tmp[1], tmp[2]`; and
# copies of a call's results and of a tuple, indexed later. The orchestration emitter
# reported an internal error (E0708) for each copy: it knew a tuple only by the name it
# was first bound to.
import pypto.language as pl

N = 64


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def both(
        self,
        x: pl.Tensor[[N, N], pl.FP32],
        a: pl.Out[pl.Tensor[[N, N], pl.FP32]],
        b: pl.Out[pl.Tensor[[N, N], pl.FP32]],
    ) -> tuple[pl.Tensor[[N, N], pl.FP32], pl.Tensor[[N, N], pl.FP32]]:
        t = pl.load(x, [0, 0], [N, N])
        a = pl.store(t, [0, 0], a)
        u = pl.add(t, t)
        b = pl.store(u, [0, 0], b)
        return a, b

    @pl.function(type=pl.FunctionType.Orchestration)
    def submitted(
        self,
        x: pl.Tensor[[N, N], pl.FP32],
        a: pl.Out[pl.Tensor[[N, N], pl.FP32]],
        b: pl.Out[pl.Tensor[[N, N], pl.FP32]],
    ):
        res = pl.submit(self.both, x, a, b)
        return res

    @pl.function(type=pl.FunctionType.Orchestration)
    def called(
        self,
        x: pl.Tensor[[N, N], pl.FP32],
        a: pl.Out[pl.Tensor[[N, N], pl.FP32]],
        b: pl.Out[pl.Tensor[[N, N], pl.FP32]],
        c: pl.Out[pl.Tensor[[N, N], pl.FP32]],
        d: pl.Out[pl.Tensor[[N, N], pl.FP32]],
    ) -> pl.Tensor[[N, N], pl.FP32]:
        pair = self.both(x, a, b)
        again = pair
        offsets = (0, 0)
        at = offsets
        row = at[0]
        second = again[1]
        c, d = self.both(second, c, d)
        e = pl.tensor.read(x, [row, 1])
        return d
