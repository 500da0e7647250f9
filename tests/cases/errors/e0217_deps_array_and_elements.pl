# E0217: deps= does not mix a whole TASK_ID array with elements of one (either order);
# task ids beside either are fine.
import pypto.language as pl


@pl.program
class Deps:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        return x

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        with pl.manual_scope():
            tids = pl.array.create(4, pl.TASK_ID)
            for n in pl.parallel(4):
                a, t = pl.submit(self.k, x)
                tids[n] = t
            b, t1 = pl.submit(self.k, x, deps=[tids, t])
            c, t2 = pl.submit(self.k, x, deps=[tids[0], t1, tids[1]])
            d, _ = pl.submit(self.k, x, deps=[tids, tids[0]])
            f, _ = pl.submit(self.k, x, deps=[tids[0], tids])
        return b
