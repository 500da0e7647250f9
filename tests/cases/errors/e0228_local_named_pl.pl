# E0228: a parameter or a variable of a pl function named as the pl module (a
# parameter, an assignment, a loop variable, a loop-carried value). The body's later
# `pl.` calls still name the module, so they are not reported again.
import pypto.language as pl


@pl.jit.incore
def scale(x: pl.Tensor[[64], pl.FP32], pl: pl.Out[pl.Tensor[[64], pl.FP32]]):
    t = pl.load(x, [0], [64])
    return x


@pl.jit.incore
def local(x: pl.Tensor[[64], pl.FP32], y: pl.Out[pl.Tensor[[64], pl.FP32]]):
    pl = pl.load(x, [0], [64])
    pl.store(pl.load(x, [0], [64]), [0], y)
    for pl in pl.range(4):
        pass
    for i, (pl,) in pl.range(4, init_values=(0,)):
        pl = pl.yield_(i)
    return y
