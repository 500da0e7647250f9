# E0211: `self.f(...)` in a function that is not a method of an @pl.program class.
import pypto.language as pl


@pl.jit
def entry(x: pl.Tensor):
    y = self.helper(x)
    return y
