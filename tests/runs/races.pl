# plc run: two tasks that touch overlapping parts of a tensor, one writing, with nothing
# ordering them, race on the real runtime (E0805); `deps=` or a tracked argument orders
# them, directly or through another task.
# run: --entry unordered
# run: --entry ordered_by_deps
# run: --entry ordered_through_another
# run: --entry manual_scope_without_deps
# run: --entry disjoint_rows
import pypto.language as pl

N = 16
H = 8


@pl.program
class Races:
    @pl.function(type=pl.FunctionType.InCore)
    def double(
        self,
        x: pl.Tensor[[N, N], pl.FP32],
        out: pl.Out[pl.Tensor[[N, N], pl.FP32]],
    ) -> pl.Tensor[[N, N], pl.FP32]:
        t = pl.load(x, [0, 0], [N, N])
        out = pl.store(pl.mul(t, 2.0), [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.InCore)
    def double_half(
        self,
        x: pl.Tensor[[H, N], pl.FP32],
        out: pl.Out[pl.Tensor[[H, N], pl.FP32]],
    ) -> pl.Tensor[[H, N], pl.FP32]:
        t = pl.load(x, [0, 0], [H, N])
        out = pl.store(pl.mul(t, 2.0), [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def unordered(
        self,
        x: pl.Tensor[[N, N], pl.FP32],
        a: pl.Out[pl.Tensor[[N, N], pl.FP32]],
        b: pl.Out[pl.Tensor[[N, N], pl.FP32]],
    ) -> tuple[pl.Tensor[[N, N], pl.FP32], pl.Tensor[[N, N], pl.FP32]]:
        a, first = pl.submit(self.double, x, a)
        b = self.double(pl.no_dep(a), b)
        return a, b

    @pl.function(type=pl.FunctionType.Orchestration)
    def ordered_by_deps(
        self,
        x: pl.Tensor[[N, N], pl.FP32],
        a: pl.Out[pl.Tensor[[N, N], pl.FP32]],
        b: pl.Out[pl.Tensor[[N, N], pl.FP32]],
    ) -> tuple[pl.Tensor[[N, N], pl.FP32], pl.Tensor[[N, N], pl.FP32]]:
        a, first = pl.submit(self.double, x, a)
        b, second = pl.submit(self.double, pl.no_dep(a), b, deps=[first])
        return a, b

    @pl.function(type=pl.FunctionType.Orchestration)
    def ordered_through_another(
        self,
        x: pl.Tensor[[N, N], pl.FP32],
        a: pl.Out[pl.Tensor[[N, N], pl.FP32]],
        b: pl.Out[pl.Tensor[[N, N], pl.FP32]],
        c: pl.Out[pl.Tensor[[N, N], pl.FP32]],
    ) -> tuple[pl.Tensor[[N, N], pl.FP32], pl.Tensor[[N, N], pl.FP32], pl.Tensor[[N, N], pl.FP32]]:
        a = self.double(x, a)
        b, second = pl.submit(self.double, a, b)
        c, third = pl.submit(self.double, pl.no_dep(a), c, deps=[second])
        return a, b, c

    @pl.function(type=pl.FunctionType.Orchestration)
    def manual_scope_without_deps(
        self,
        x: pl.Tensor[[N, N], pl.FP32],
        a: pl.Out[pl.Tensor[[N, N], pl.FP32]],
        b: pl.Out[pl.Tensor[[N, N], pl.FP32]],
    ) -> tuple[pl.Tensor[[N, N], pl.FP32], pl.Tensor[[N, N], pl.FP32]]:
        with pl.manual_scope():
            a = self.double(x, a)
            b = self.double(a, b)
        return a, b

    @pl.function(type=pl.FunctionType.Orchestration)
    def disjoint_rows(
        self,
        x: pl.Tensor[[N, N], pl.FP32],
        a: pl.Out[pl.Tensor[[N, N], pl.FP32]],
    ) -> pl.Tensor[[N, N], pl.FP32]:
        top = pl.slice(a, [H, N], [0, 0])
        bottom = pl.slice(a, [H, N], [H, 0])
        # Untracked in a manual scope (a written argument may not be `pl.no_dep`, E0415),
        # with no deps: the rows are disjoint, so nothing races.
        with pl.manual_scope():
            top = self.double_half(pl.slice(x, [H, N], [0, 0]), top)
            bottom = self.double_half(pl.slice(x, [H, N], [H, 0]), bottom)
        return a
