# A deps= comprehension is unrolled at compile time: its filter keeps the elements it is
# true for, and may not read a variable of the function (E0218).
import pypto.language as pl


@pl.program
class Filter:
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
            b, _ = pl.submit(self.k, x, deps=[tids[k] for k in range(4) if k % 2 == 0])
            for outer in pl.range(2):
                c, _ = pl.submit(self.k, x, deps=[tids[k] for k in range(4) if k != outer])
        return b
