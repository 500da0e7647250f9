# One-line suites after a colon, semicolons between simple statements, a trailing
# semicolon, and `pass` in every kind of block.
import pypto.language as pl

A = 1


@pl.jit
def one_liners(x: pl.Tensor, n: pl.INDEX):
    if n > 0: pass
    if n > 1: a = 1; b = 2
    elif n > 2: a = 3; b = 4;
    else: a = 5; b = 6
    for i in pl.range(4): c = i * 2
    while n < 0: n = n + 1
    with pl.at(level=pl.Level.CORE_GROUP): pl.store(pl.load(x, [0, 0], [8, 8]), [0, 0], x)
    if n == 0:
        pass
    else:
        pass
    return a, b


@pl.jit.inline
def empty_body(x: pl.Tensor): pass


@pl.program
class Empty:
    pass
