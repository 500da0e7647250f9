# E0227: two parameters with the same name, as Python refuses them ("duplicate argument
# 'x' in function definition"); reported at the second one, in a module function and in
# a method (where `self` counts too). Calls of the functions are not reported again.
import pypto.language as pl


@pl.jit.incore
def scale(x: pl.Tensor[[64], pl.FP32], x: pl.Out[pl.Tensor[[64], pl.FP32]]):
    t = pl.load(x, [0], [64])
    pl.store(t, [0], x)
    return x


@pl.jit
def entry(a: pl.Tensor[[64], pl.FP32], b: pl.Out[pl.Tensor[[64], pl.FP32]]):
    b = scale(a, b)
    return b


@pl.program
class Prog:
    @pl.function(type=pl.FunctionType.Orchestration)
    def run(self, n: pl.Scalar[pl.INDEX], self: pl.Scalar[pl.INDEX]):
        return n
