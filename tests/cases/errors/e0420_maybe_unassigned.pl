# E0420: ConvertToSSA finds a read that no assignment reaches on every path: a name
# assigned in one branch of an `if` only, a scalar first assigned inside a loop (nothing of
# its type can stand in when the loop runs zero times), and a loop variable after its loop.
import pypto.language as pl


@pl.program
class MaybeUnassigned:
    @pl.function
    def one_branch(self, x: pl.Tensor[[64], pl.FP32], flag: pl.Scalar[pl.BOOL]) -> pl.Tensor[[64], pl.FP32]:
        if flag:
            y = pl.add(x, 1.0)
        return y

    @pl.function
    def zero_trip(self, n: pl.Scalar[pl.INT32]) -> pl.Scalar[pl.INDEX]:
        for i in pl.range(4):
            twice = i * 2
        return twice

    @pl.function
    def loop_variable(self, n: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INDEX]:
        for i in pl.range(n):
            pass
        return i
