# E0219: `pl.while_` needs `init_values=`, and its body must start with `pl.cond(c)`;
# `pl.cond` anywhere else is misplaced.
import pypto.language as pl


@pl.jit
def entry(x: pl.Tensor, n: pl.INDEX):
    for (k,) in pl.while_():
        pl.cond(k < n)
        k2 = pl.yield_(k + 1)
    for (j,) in pl.while_(init_values=(0,)):
        j2 = j + 1
        pl.cond(j2 < n)
        j3 = pl.yield_(j2)
    pl.cond(n > 0)
    return x
