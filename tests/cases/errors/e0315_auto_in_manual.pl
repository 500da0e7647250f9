# E0315: an automatic scope nested inside a manual scope (in a function with
# auto_scope=False, so the hand-placed `pl.scope()` is otherwise allowed).
import pypto.language as pl


@pl.jit(auto_scope=False)
def entry(x: pl.Tensor, out: pl.Out[pl.Tensor]):
    with pl.manual_scope():
        with pl.scope():
            with pl.at(level=pl.Level.CORE_GROUP):
                t = pl.load(x, [0, 0], [64, 64])
                pl.store(t, [0, 0], out)
    return out
