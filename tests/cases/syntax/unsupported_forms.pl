# Python forms that parse but are not part of pl: each is reported once, by name (E0110),
# and nothing else is reported.
import pypto.language as pl


@pl.jit
def unsupported(x: pl.Tensor, n: pl.INDEX, xs: pl.Tensor):
    a = 1
    a += 1
    a -= 2
    a **= 2
    a //= 3
    a >>= 1
    f = lambda v: v + 1
    b = a if n > 0 else 2
    c = 0 < n < 10
    d = n in xs
    e = n not in xs
    g = x is None
    h = x is not None
    i = +n
    j = x @ x
    k = {1, 2}
    m = {v for v in xs}
    o = {v: v for v in xs}
    p = sum(v for v in xs)
    q = [v for v in xs for w in xs]
    r = pl.add(*xs)
    s = pl.add(x, **xs)
    t = (u := 3)
    w = [*xs, 1]
    y = {**xs}
    z = 1j
    bb = b"bytes"
    try:
        pass
    except ValueError as err:
        pass
    finally:
        pass
    raise ValueError("no")
    assert n > 0, "n must be positive"
    del a
    global G
    nonlocal a
    with pl.at(level=pl.Level.CORE_GROUP), pl.scope():
        pass
    yield x

    def inner(v: pl.Tensor):
        return v

    class Inner:
        pass

    return x


@pl.jit
def bad_params(*args, key: pl.Tensor, **kwargs):
    return key


@pl.jit
def markers(a: pl.Tensor, /, *, b: pl.Tensor):
    return a


@pl.jit
async def coroutine(x: pl.Tensor):
    await x
    async for i in pl.range(2):
        pass
    async with pl.scope():
        pass


@pl.jit
def loops_with_else(x: pl.Tensor, n: pl.INDEX):
    # Each error points at the `else` keyword; a nested conditional expression is one error.
    for i in pl.range(n):
        pass
    else:
        pass
    while n > 0:
        n = n - 1
    else:
        pass
    c = 1 if n else 2 if n else 3
    return x
