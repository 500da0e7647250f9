# The dynamic-dimension forms of a `@pl.jit` body, misused: `bind_dynamic` of a value
# that is no tensor, with an axis past the rank or not a constant, with a dimension that
# is no `pl.dynamic` name, or with a keyword (E0217, E0203); an extent of a bare tensor's
# shape at an axis that is no constant (E0217); a body's dynamic dimension
# read before any `bind_dynamic` binds it (E0201); `pl.dynamic` with a non-string name
# (E0217); and both forms outside a `@pl.jit` function, where they are not pl code
# (E0223, E0211). The last function is well formed.
import pypto.language as pl

K = 4


@pl.jit.incore
def misuse(a: pl.Tensor[[64, 128], pl.FP32], b: pl.Tensor, c: pl.Out[pl.Tensor[[64, 128], pl.FP32]]):
    M = pl.dynamic("M")
    n = pl.tensor.dim(a, 0)
    r = b.shape[n]
    n.bind_dynamic(0, M)
    a.bind_dynamic(2, M)
    a.bind_dynamic(n, M)
    a.bind_dynamic(0, K)
    a.bind_dynamic(0, dim=M)
    t = pl.load(a, [0, 0], [M, 128])
    W = pl.dynamic(7)
    pl.store(t, [0, 0], c)
    return c


@pl.function(type=pl.FunctionType.InCore)
def not_jit(a: pl.Tensor[[64, 128], pl.FP32], c: pl.Out[pl.Tensor[[64, 128], pl.FP32]]) -> pl.Tensor[[64, 128], pl.FP32]:
    M = pl.dynamic("M")
    a.bind_dynamic(0, K)
    return c


@pl.jit.incore
def fine(a: pl.Tensor, c: pl.Out[pl.Tensor]):
    M = pl.dynamic("M")
    a.bind_dynamic(0, M)
    rows, cols = a.shape
    t = pl.load(a, [0, 0], [M, cols])
    pl.store(t, [0, 0], c)
    return c
