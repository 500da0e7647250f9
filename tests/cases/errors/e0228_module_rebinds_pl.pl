# E0228: the name of the pl module bound again at module level, where plc used to drop
# every function silently (`plc check` exited 0): a constant, an import `as pl`, a pl
# function named `pl`, host code (an assignment, a `def`, a `for` target, a `with`
# target), and the distributed module's alias. Each is reported at the new binding; the
# functions are still checked.
import torch
import pypto.language as pl
import pypto.language.distributed as pld


@pl.jit.incore
def scale(x: pl.Tensor[[64], pl.FP32], y: pl.Out[pl.Tensor[[64], pl.FP32]]):
    t = pl.load(x, [0], [64])
    pl.store(t, [0], y)
    return y


pl = 3
import torch as pl


@pl.jit.incore
def pl(x: pl.Tensor[[64], pl.FP32]):
    return x


pl = torch.ones(4)


def pl():
    pass


for pl in range(3):
    pass

with open("f") as pl:
    pass

pld = 1


@pl.jit
def entry(a: pl.Tensor[[64], pl.FP32], b: pl.Out[pl.Tensor[[64], pl.FP32]]):
    b = scale(a, undefined_name)
    return b
