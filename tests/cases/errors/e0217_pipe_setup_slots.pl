# E0217: the set-up of a cross-core pipe as PTOAS verifies it (its frontend
# `*_initialize_pipe`): `dir_mask=` is 1 (cube to vector), 2 (vector to cube) or 3 (both);
# `local_slot_num=` is at most the pipe's slots (`slot_num=`, else 8 for one direction and
# 4 for both). The last two calls are within bounds and accepted.
import pypto.language as pl


@pl.jit.incore
def relay(x: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]):
    pl.aiv_initialize_pipe(0, 0, dir_mask=0, slot_size=1024)
    pl.aic_initialize_pipe(0, 0, dir_mask=4, slot_size=1024, id=1)
    pl.aiv_initialize_pipe(0, 0, dir_mask=1, slot_size=1024, slot_num=2, local_slot_num=3, id=2)
    pl.aic_initialize_pipe(0, 0, dir_mask=3, slot_size=1024, local_slot_num=5, id=3)
    pl.aiv_initialize_pipe(0, 0, dir_mask=2, slot_size=1024, local_slot_num=8, id=4)
    pl.aic_initialize_pipe(0, 0, dir_mask=3, slot_size=1024, slot_num=4, local_slot_num=4, id=5)
    t = pl.load(x, [0, 0], [16, 16])
    out = pl.store(t, [0, 0], out)
    return out
