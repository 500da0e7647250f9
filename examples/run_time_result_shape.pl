# A kernel's result that is a new tensor whose extents are known only at run time: the
# matmul of two bare `pl.Tensor` parameters (PyPTO's advanced/03_mixed_kernel, staged form),
# and a tensor op on a `pl.dynamic` extent. The orchestration computes the result's extents
# from the call's arguments (`ext_a.shapes[0]`, `ext_b.shapes[1]`; a bare tensor's rank,
# taken from the op, is checked at run time) and the runtime allocates it before the launch.
import pypto.language as pl

M = 64
N = 32
R = pl.dynamic("R")


@pl.jit
def staged(a: pl.Tensor, b: pl.Tensor, bias: pl.Tensor, out: pl.Out[pl.Tensor]):
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="cube_stage"):
        acc = pl.matmul(a, b, out_dtype=pl.FP32)
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="vector_stage"):
        out[:] = pl.add(acc, bias)
    return out


@pl.jit
def rows(x: pl.Tensor[[R, N], pl.FP32], out: pl.Out[pl.Tensor[[R, N], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="doubled"):
        y = pl.add(x, x)
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="plus"):
        t = pl.load(y, [0, 0], [M, N])
        u = pl.load(x, [0, 0], [M, N])
        out = pl.store(pl.add(t, u), [0, 0], out)
    return out
