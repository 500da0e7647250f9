# E0202/E0203: the signatures of the ops added for issue 11 (ops.md §2): the tile form of
# `row_prod` needs its scratch tile, the tensor form of `row_argmax` takes none (PyPTO
# rejects `tmp_tile=` on tensors), `pl.get_block_num()` takes no argument.
import pypto.language as pl


@pl.jit
def entry(x: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]):
    a = pl.tensor.row_argmax(x, tmp_tile=x)
    with pl.at(level=pl.Level.CORE_GROUP):
        t = pl.load(x, [0, 0], [16, 16])
        p = pl.tile.row_prod(t)
        n = pl.get_block_num(1)
        pl.store(t, [0, 0], out)
    return out
