# E0217/E0202: the signatures of the cross-core pipe ops (issue 11, ops.md §2.4):
# `tpop_from_aiv` needs `shape=` and `dtype=` together, `aic_initialize_pipe` needs
# `dir_mask=` and `slot_size=`, `tpush_to_aiv` its `split=`, `reserve_buffer` a string name;
# a pipe's `slot_num=` and `local_slot_num=` are positive (PyPTO's codegen checks).
import pypto.language as pl


@pl.jit.incore
def relay(x: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]):
    r = pl.tpop_from_aiv(shape=[16, 16])
    pl.aic_initialize_pipe(0, 0, dir_mask=1)
    t = pl.load(x, [0, 0], [16, 16])
    pl.tpush_to_aiv(t)
    b = pl.reserve_buffer(name=3, size=4096)
    pl.aiv_initialize_pipe(0, 0, dir_mask=1, slot_size=1024, slot_num=0)
    pl.aiv_initialize_pipe(0, 0, dir_mask=1, slot_size=1024, slot_num=2, local_slot_num=-1)
    out = pl.store(t, [0, 0], out)
    return out
