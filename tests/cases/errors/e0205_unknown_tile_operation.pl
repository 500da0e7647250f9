# E0205: `pl.tile.nonexistent_op(...)` and `pld.nonexistent_op(...)`: unknown operations
# under a namespace of pl and under the distributed namespace.
import pypto.language as pl
import pypto.language.distributed as pld


@pl.jit
def entry(x: pl.Tensor, out: pl.Out[pl.Tensor]):
    with pl.at(level=pl.Level.CORE_GROUP):
        t = pl.load(x, [0, 0], [64, 64])
        u = pl.tile.nonexistent_op(t)
        v = pld.nonexistent_op(x)
        pl.store(t, [0, 0], out)
    return out
