# Two forms PyPTO's parser takes as Python would. An op's operands may be passed by the names
# of its parameters, mixed with positional ones (`pl.add(lhs=a, rhs=b)`,
# `pl.load(x, [0, 0], shapes=[N, N])`), since PyPTO's ops are Python functions. And the
# `pl.yield_` that ends a loop body or an `if` branch may be the last statement of a
# runtime scope (`with pl.scope():` / `with pl.manual_scope():`) ending it: a scope opens
# no new names, so the yield is the body's. (Both scopes here track dependencies: a task of
# a `pl.manual_scope()` is ordered only by its `deps=`, so the next iteration's reader of
# `out` could run before it on simpler.)
import pypto.language as pl

N = 64


@pl.program
class CallForms:
    @pl.function(type=pl.FunctionType.InCore)
    def blend(
        self,
        x: pl.Tensor[[N, N], pl.FP32],
        y: pl.Tensor[[N, N], pl.FP32],
        out: pl.Out[pl.Tensor[[N, N], pl.FP32]],
    ) -> pl.Tensor[[N, N], pl.FP32]:
        a = pl.load(tensor=x, offsets=[0, 0], shapes=[N, N])
        b = pl.load(y, [0, 0], shapes=[N, N])
        s = pl.add(lhs=a, rhs=b)
        d = pl.sub(s, rhs=a)
        m = pl.mul(rhs=d, lhs=s)
        out = pl.store(m, [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration, auto_scope=False)
    def main(
        self,
        x: pl.Tensor[[N, N], pl.FP32],
        y: pl.Tensor[[N, N], pl.FP32],
        out: pl.Out[pl.Tensor[[N, N], pl.FP32]],
    ) -> pl.Tensor[[N, N], pl.FP32]:
        for i, (acc,) in pl.range(3, init_values=(x,)):
            with pl.scope(name_hint="step"):
                if i == 0:
                    with pl.scope(name_hint="first"):
                        first = self.blend(acc, y, out)
                        value = pl.yield_(first)
                else:
                    with pl.scope():
                        later = self.blend(y, acc, out)
                        value = pl.yield_(later)
                acc = pl.yield_(value)
        return acc
