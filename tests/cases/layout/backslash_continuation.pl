# Backslash continuation: in a statement, in a block header, with the next line
# less indented than the block, and right before a comment line.
import pypto.language as pl


@pl.jit
def cont(x: pl.Tensor, n: pl.INDEX):
    a = 1 + \
2
    if n > 0 and \
            n < 8:
        b = \
            a
    c = [1,
         2] + \
        [3]
    return \
        x
