# E0010: a backslash continues a line only as its last character.
import pypto.language as pl


@pl.jit
def f(x: pl.Tensor, n: pl.INDEX):
    a = 1 + \ 2
    b = n \  
    return x
