# E0110: a list comprehension stands only in deps= of a launch or scope, as PyPTO
# parses it; bound to a name first, it is refused.
import pypto.language as pl


@pl.program
class Named:
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
            listed = [tids[k] for k in range(4)]
            b, _ = pl.submit(self.k, x, deps=listed)
        return b
