# E0217: `pl.system.task_dummy` requires `deps=` (PyPTO: "requires keyword argument
# 'deps'") and takes no keyword of another name but `attrs=`, PyPTO's generic attribute
# dict (read as on any op call: an extra key is accepted, a dependency edge is not).
import pypto.language as pl


@pl.jit.incore
def k(x: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]):
    out = pl.store(pl.load(x, [0, 0], [16, 16]), [0, 0], out)
    return out


@pl.jit
def entry(x: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]):
    out, first = pl.submit(k, x, out)
    none = pl.system.task_dummy()
    other = pl.system.task_dummy(deps=[first], after=[first])
    marked = pl.system.task_dummy(deps=[first], attrs={"my_marker": 7})
    edged = pl.system.task_dummy(deps=[first], attrs={"manual_dep_edges": [first]})
    return out
