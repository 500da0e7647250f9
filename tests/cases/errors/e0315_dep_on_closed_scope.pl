# E0315: a deps= entry naming a task id first bound inside a runtime scope that has
# closed: the id does not outlive its scope. The second launch re-binds `late` after
# its scope, so `late` lives on and is fine; the task_dummy entry is refused too.
import pypto.language as pl


@pl.program
class ClosedScopeDeps:
    @pl.function(type=pl.FunctionType.InCore)
    def step(self, x: pl.Tensor[[32], pl.FP32]) -> pl.Tensor[[32], pl.FP32]:
        return x

    @pl.function(type=pl.FunctionType.Orchestration, auto_scope=False)
    def main(self, x: pl.Tensor[[32], pl.FP32]) -> pl.Tensor[[32], pl.FP32]:
        with pl.scope():
            _a, inner = pl.submit(self.step, x)
            _b, late = pl.submit(self.step, x)
        _c, late = pl.submit(self.step, x)
        fence = pl.system.task_dummy(deps=[inner])
        y, _ = pl.submit(self.step, x, deps=[late, inner])
        return y
