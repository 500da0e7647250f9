# Attribute, call and subscript chains; slices with missing bounds, a step, and several
# dimensions; keyword arguments mixed with positional ones.
import pypto.language as pl


@pl.jit
def trailers(t: pl.Tensor, out: pl.Out[pl.Tensor]):
    a = pl.tensor.dim(t, 0)
    b = pl.Level.CORE_GROUP
    c = self_like.method(1)(2)[3].attr
    d = t[0:64, :]
    e = t[:, 1:]
    f = t[:4]
    g = t[2:]
    h = t[:]
    i = t[::2]
    j = t[1:8:2, ::]
    k = t[a - 1, a // 2]
    m = t[(1, 2)]
    n = pl.load(t, [0, 0], [64, 64], target_memory=pl.MemorySpace.Vec)
    o = pl.slice(t, [64, 64], [0, 0])[0:32, 0:32]
    out[0:64, :] = d
    out[:] = pl.add(d, d)
    return out
