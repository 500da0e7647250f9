# E0217: deps= is a list, a tuple or one comprehension, written out: a computed value such
# as the concatenation of two lists is refused (as PyPTO refuses it), on a scope and on a
# launch; one list holding the same entries is fine.
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
            with pl.at(level=pl.Level.CORE_GROUP, name_hint="seed") as seed:
                t = pl.create_tensor([64], dtype=pl.FP32)
            with pl.at(level=pl.Level.CORE_GROUP, name_hint="proj", deps=[seed] + [tids[i] for i in range(4)]):
                u = pl.create_tensor([64], dtype=pl.FP32)
            b, t1 = pl.submit(self.k, x, deps=[seed] + [seed])
            c, t2 = pl.submit(self.k, x, deps=[seed, tids[0], tids[1]])
        return b
