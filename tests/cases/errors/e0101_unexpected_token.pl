# E0101: a token the grammar does not allow where it stands; the message says what was
# expected. Each statement is reported once and parsing goes on at the next line.
import pypto.language as pl


@pl.jit
def f(x pl.Tensor):
    return x


@pl.jit
def g(x: pl.Tensor):
    y = pl.add(x, x,, x)
    z = x +* 2
    for in pl.range(4):
        pass
    return y z


# The tokens listed are those of the parser's state where it met the error: after `not i or x`
# in a filter, `and` is among them, and after the `x` of `x if x if`, every operator (the
# levelled grammar had reduced further and listed only `else` and `or`).
@pl.jit
def h(x: pl.Tensor):
    w = [x and x = 1]
    v = [i for i in x if not i or x = 1]
    u = x if x if x else x else x
    return w
