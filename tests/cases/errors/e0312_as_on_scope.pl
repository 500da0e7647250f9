# E0312: `as` on scopes that bind nothing (`pl.cluster`, `pl.manual_scope`).
import pypto.language as pl


@pl.jit
def entry(x: pl.Tensor, out: pl.Out[pl.Tensor]):
    with pl.cluster() as c:
        pass
    with pl.manual_scope() as m:
        pass
    return out
