# The body of an Inline function cannot be placed before a `while` condition once: the
# condition is evaluated again before every iteration.
import pypto.language as pl


@pl.jit.inline
def next_step(i: pl.INDEX):
    j = i + 1
    return j


@pl.jit
def entry(a: pl.Tensor, out: pl.Out[pl.Tensor], n: pl.INDEX):
    i = 0
    while next_step(i) < n:
        out = pl.assemble(out, a, [0, 0])
        i = i + 1
    return out
