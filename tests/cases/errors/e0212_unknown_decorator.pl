# E0212: `@pl.kernel` is not a decorator of the pl language.
import pypto.language as pl


@pl.kernel
def f(x: pl.Tensor):
    return x


@pl.jit
def entry(x: pl.Tensor):
    return x
