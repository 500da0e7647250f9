# E0217: a deps= entry is a task id (a TaskId variable, an element of a TASK_ID array, or
# a whole array) or None, as PyPTO's parser requires ("deps= entries must be a TaskId
# variable, a TASK_ID array element (e.g. 'arr[i]'), or None"); a number or a tensor is
# refused, on a launch and on a scope. A variable bound to None before the first launch
# (`prev = None`) is a task id.
import pypto.language as pl


@pl.program
class DepsEntries:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        return x

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        with pl.manual_scope():
            tids = pl.array.create(4, pl.TASK_ID)
            prev = None
            with pl.at(level=pl.Level.CORE_GROUP, name_hint="seed", deps=[prev, None]) as seed:
                t = pl.create_tensor([64], dtype=pl.FP32)
            a, t0 = pl.submit(self.k, x, deps=[seed, tids[1], None])
            b, t1 = pl.submit(self.k, x, deps=[seed, 3])
            with pl.at(level=pl.Level.CORE_GROUP, name_hint="proj", deps=[x]):
                u = pl.create_tensor([64], dtype=pl.FP32)
            c, t2 = pl.submit(self.k, x, deps=[tids])
        return b
