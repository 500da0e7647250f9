# E0211: Python builtins such as `min` fold constants only; on run-time scalars they are
# not pl operations (reference §2.2: "Unsupported function call").
import pypto.language as pl


@pl.jit
def entry(x: pl.Tensor, a: pl.INDEX, b: pl.INDEX):
    m = min(a, b)
    return x
