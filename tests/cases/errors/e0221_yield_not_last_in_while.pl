# A yield that is not the last statement of a pl.while_() body: one error, and the name it
# assigns stays defined (no "undefined name" for the use after it).
import pypto.language as pl

@pl.jit
def f(x: pl.Tensor[[64], pl.FP32]):
    for (s,) in pl.while_(init_values=(0,)):
        pl.cond(s < 4)
        t = pl.yield_(s + 1)
        t = t + 1
    return x
