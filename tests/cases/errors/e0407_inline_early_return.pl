# A `return` inside an `if` of an Inline function cannot be spliced: the caller would need
# to jump over the rest of the spliced body.
import pypto.language as pl


@pl.jit.inline
def clamp(x: pl.INDEX, hi: pl.INDEX):
    if x > hi:
        return hi
    return x


@pl.jit
def entry(a: pl.Tensor, out: pl.Out[pl.Tensor], n: pl.INDEX):
    for i in pl.range(clamp(n, 4)):
        out = pl.assemble(out, a, [0, 0])
    return out
