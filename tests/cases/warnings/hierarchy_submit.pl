# A function with a `level=` (a hierarchy function, what OutlineHierarchyScopes makes of a
# `with pl.at(level=..., role=...) as tid:` region) runs as a task of its own: it may be
# launched with `pl.submit`, whose task id orders a later launch (`deps=`). This is the
# form plc prints for such a region, so the printed program reads back.
import pypto.language as pl


@pl.program
class Staged:
    @pl.function(level=pl.Level.GLOBAL, role=pl.Role.Orchestrator)
    def first(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        y: pl.Tensor[[64], pl.FP32] = pl.add(x, x)
        return y

    @pl.function(type=pl.FunctionType.Opaque)
    def main(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        y, t1 = pl.submit(self.first, x)
        with pl.at(level=pl.Level.HOST, role=pl.Role.Orchestrator, name_hint="second", deps=[t1]) as _t2:
            z: pl.Tensor[[64], pl.FP32] = pl.mul(y, y)
        return z
