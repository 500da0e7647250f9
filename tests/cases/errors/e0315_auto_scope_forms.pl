# E0315 / E0202 / E0310: `with pl.auto_scope():` is the explicit AUTO runtime scope (the
# form PyPTO prints for the scopes its compiler places). It needs no
# `@pl.function(auto_scope=False)` (function `wrapped` has none and is accepted, its
# `return` inside the scope too), takes no arguments, and may not sit inside a manual scope.
import pypto.language as pl


@pl.program
class Scoped:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self, a: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        t: pl.Tile[[16, 16], pl.FP32] = pl.load(a, [0, 0], [16, 16])
        r: pl.Tensor[[16, 16], pl.FP32] = pl.store(t, [0, 0], out)
        return r

    @pl.function(type=pl.FunctionType.Orchestration)
    def wrapped(
        self, a: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        with pl.auto_scope():
            for i in pl.range(4):
                with pl.auto_scope():
                    out = self.kernel(a, out)
            return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def misplaced(
        self, a: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        with pl.auto_scope(1):
            out = self.kernel(a, out)
        with pl.auto_scope(name_hint="s"):
            out = self.kernel(a, out)
        with pl.manual_scope():
            with pl.auto_scope():
                out = self.kernel(a, out)
        return out
