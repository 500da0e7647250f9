# E0217: a cross-core pipe's `id=` is non-negative, on its set-up and on every push, pop and
# free of it (PyPTO's codegen of the frontend pipe ops, and PTOAS's verifier of
# `*_initialize_pipe`). The calls with `id=0` are accepted.
import pypto.language as pl


@pl.jit.incore
def relay(x: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]):
    pl.aiv_initialize_pipe(0, 0, dir_mask=1, slot_size=1024, id=-1)
    pl.aic_initialize_pipe(0, 0, dir_mask=1, slot_size=1024, id=0)
    t = pl.load(x, [0, 0], [16, 16])
    pl.tpush_to_aiv(t, split=0, id=-2)
    pl.tpush_to_aic(t, split=0, id=-3)
    a = pl.tpop_from_aic(shape=[16, 16], dtype=pl.FP32, id=-4)
    b = pl.tpop_from_aiv(shape=[16, 16], dtype=pl.FP32, id=-5)
    c = pl.tpop_from_aic(shape=[16, 16], dtype=pl.FP32, id=0)
    pl.tfree_to_aic(c, id=-6)
    pl.tfree_to_aiv(c, id=0)
    out = pl.store(t, [0, 0], out)
    return out
