# The forms of a `@pl.jit` body that PyPTO's specializer rewrites before parsing, as its
# own tests write them: the decorator imported by name (`from pypto.jit.decorator import
# jit`, then `@jit`, `@jit.incore`, `@jit.inline`), the shape of a bare `pl.Tensor`
# unpacked or indexed (each extent read at run time, as `pl.tensor.dim`), a dynamic
# dimension declared in the body and bound to an axis (`M = pl.dynamic("M")`,
# `a.bind_dynamic(0, M)`), one of the module bound the same way, and a re-binding to a
# value of another shape (the specializer gives it a fresh name).
import pypto.language as pl
from pypto.jit.decorator import jit

ROWS = pl.dynamic("ROWS")


@jit.incore
def add_incore(a: pl.Tensor, b: pl.Tensor, c: pl.Out[pl.Tensor]):
    M, N = a.shape
    tile_a = pl.load(a, [0, 0], [M, N])
    tile_b = pl.load(b, [0, 0], [M, a.shape[1]])
    pl.store(pl.add(tile_a, tile_b), [0, 0], c)
    return c


@jit.incore
def copy_dynamic(a: pl.Tensor, c: pl.Out[pl.Tensor]):
    M = pl.dynamic("M")
    a.bind_dynamic(0, M)
    c.bind_dynamic(0, M)
    for r in pl.range(0, M, 16):
        tile_a = pl.load(a, [r, 0], [16, 128])
        pl.store(tile_a, [r, 0], c)
    return c


@jit.inline
def widen(x: pl.Tensor[[ROWS, 128], pl.BF16], y: pl.Tensor[[ROWS, 128], pl.BF16]):
    x.bind_dynamic(0, ROWS)
    with pl.at(level=pl.Level.CORE_GROUP):
        t = pl.load(x, [0, 0], [16, 128])
        pl.store(t, [0, 0], y)
    return y


@jit
def entry(a: pl.Tensor, b: pl.Tensor, c: pl.Out[pl.Tensor]):
    c = add_incore(a, b, c)
    return c


@jit
def entry_dynamic(
    x: pl.Tensor[[ROWS, 128], pl.BF16],
    y: pl.Out[pl.Tensor[[ROWS, 128], pl.BF16]],
    a: pl.Tensor,
    c: pl.Out[pl.Tensor],
):
    x.bind_dynamic(0, ROWS)
    y.bind_dynamic(0, ROWS)
    c = copy_dynamic(a, c)
    head = pl.slice(x, [16, 128], [0, 0])
    head = pl.slice(x, [8, 128], [0, 0])
    y = widen(x, y)
    return y


@jit
def runtime_sized(cfg: pl.Tensor, out: pl.Out[pl.Tensor]):
    # An extent read from a bare `pl.Tensor` (its element type known at run time only).
    n = pl.tensor.read(cfg, [0])
    tmp = pl.create_tensor([n, 64], dtype=pl.FP32)
    out = add_incore(tmp, tmp, out)
    return out
