# E0217: PyPTO's checks on the `pl.tensor.*` ops (ops.md §2.2, column "checks"): `arange`'s
# last extent not 1, an atomic `assemble` of FP32/BF16/FP16/INT32/INT16/INT8 data, `cmp`'s
# cmp_type 0..5 (a tensor or a scalar rhs), `mrgsort` of FP16/FP32 sources, a precise
# `recip` of FP16/FP32, `row_expand_add` of one dtype among INT8..FP32, `set_validshape` of
# integer extents, `sort32` of a last extent a multiple of 32, `subs` not of UINT8, a DN
# `view` of at least 2 axes, no scratch tile on the tensor `xor`; and the tile forms of an
# atomic `store` and of `mrgsort_format2`. The last function holds the accepted forms.
import pypto.language as pl


@pl.function
def refused(
    x: pl.Tensor[[16, 16], pl.FP32],
    w: pl.Tensor[[16, 16], pl.INT64],
    i: pl.Tensor[[16, 16], pl.INT32],
    u: pl.Tensor[[16, 16], pl.UINT8],
    h: pl.Tensor[[16, 1], pl.FP16],
    s: pl.Tensor[[1, 48], pl.FP32],
    k: pl.Tensor[[1, 48], pl.UINT32],
    v: pl.Tensor[[256], pl.FP32],
) -> pl.Tensor[[16, 16], pl.FP32]:
    c1 = pl.arange(0, [16, 1], dtype=pl.INT32)
    w = pl.assemble(w, w, [0, 0], atomic=pl.AtomicType.Add)
    c2 = pl.tensor.cmp(x, x, cmp_type=7)
    c3 = pl.tensor.cmp(x, 1.0, cmp_type=-1)
    m1 = pl.tensor.mrgsort(i, i)
    r1 = pl.tensor.recip(i, high_precision=True)
    r2 = pl.tensor.row_expand_add(x, h)
    v1 = pl.tensor.set_validshape(x, 1.5, 8)
    o1 = pl.tensor.sort32(s, k)
    s1 = pl.tensor.subs(u, 1)
    v2 = pl.tensor.view(v, [256], layout=pl.TensorLayout.DN)
    b1 = pl.xor(i, i, i)
    return x


@pl.function(type=pl.FunctionType.InCore)
def refused_tiles(
    x: pl.Tensor[[16, 64], pl.INT32],
    out: pl.Out[pl.Tensor[[16, 64], pl.INT64]],
) -> pl.Tensor[[16, 64], pl.INT64]:
    t = pl.load(x, [0, 0], [16, 64])
    m = pl.tile.mrgsort_format2(t, t, t)
    w = pl.tile.cast(t, pl.INT64)
    out = pl.store(w, [0, 0], out, atomic=pl.AtomicType.Add)
    return out


@pl.function
def accepted(
    x: pl.Tensor[[16, 16], pl.FP32],
    i: pl.Tensor[[16, 16], pl.INT32],
    r: pl.Tensor[[16, 1], pl.FP32],
    s: pl.Tensor[[1, 64], pl.FP32],
    k: pl.Tensor[[1, 64], pl.UINT32],
) -> pl.Tensor[[16, 16], pl.FP32]:
    c1 = pl.arange(0, [1, 16], dtype=pl.INT32)
    i = pl.assemble(i, i, [0, 0], atomic=pl.AtomicType.Add)
    c2 = pl.tensor.cmp(x, x, cmp_type=5)
    m1 = pl.tensor.mrgsort(s, s)
    r1 = pl.tensor.recip(x, high_precision=True)
    r2 = pl.tensor.row_expand_add(x, r)
    v1 = pl.tensor.set_validshape(x, 8, 8)
    o1 = pl.tensor.sort32(s, k)
    s1 = pl.tensor.subs(i, 1)
    v2 = pl.tensor.view(x, [16, 16], layout=pl.TensorLayout.DN)
    b1 = pl.xor(i, i)
    return x
