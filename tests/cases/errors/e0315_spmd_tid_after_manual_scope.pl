# E0315: the task id of a `with pl.spmd(...) as tid:` region inside a manual scope,
# named by a launch after that scope has closed. Inside the scope it would be fine.
import pypto.language as pl


@pl.program
class GridAfterScope:
    @pl.function(type=pl.FunctionType.InCore)
    def fill(self, a: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        t = pl.load(a, [0, 0], [16, 16])
        return pl.store(t, [0, 0], out)

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        a: pl.Tensor[[16, 16], pl.FP32],
        mid: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
        out: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        with pl.manual_scope():
            with pl.spmd(2) as grid:
                mid = self.fill(a, mid)
            mid, ok_tid = pl.submit(self.fill, a, mid, deps=[grid])
        out, _ = pl.submit(self.fill, mid, out, deps=[grid])
        return out
