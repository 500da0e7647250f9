# Assignment forms: plain, annotated, tuple unpacking with and without parentheses or
# brackets, a starred target, nested tuples, chained assignment, subscript and slice
# targets, attribute targets.
import pypto.language as pl


@pl.jit
def targets(x: pl.Tensor, out: pl.Out[pl.Tensor], arr: pl.Tensor):
    a = 1
    b: pl.Scalar[pl.INDEX] = 2
    c: pl.Tensor
    d, e = f(x)
    (g, h) = f(x)
    [i, j] = f(x)
    k, = f(x)
    (m, n), tid = pl.submit(kernel, x)
    first, *rest = f(x)
    p = q = 3
    out[:] = x
    out[0:16, 4:] = x
    arr[a] = b
    x.attr = 1
    return out
