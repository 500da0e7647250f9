# The cross-core pipes of a mixed kernel (issue 11, ops.md §2.4): they parse, type and
# lower, but neither `plc run` nor the C++ backend runs them (the cube and vector kernels
# of a cluster would have to run at once): each names the op and says why
# (tests/run.rs, docs/kernels.md).
import pypto.language as pl


@pl.jit.incore
def relay(x: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]):
    buf = pl.reserve_buffer(name="c2v", size=4096)
    pl.aiv_initialize_pipe(buf, dir_mask=1, slot_size=1024)
    t = pl.load(x, [0, 0], [16, 16])
    pl.tpush_to_aic(t, split=0)
    r = pl.tpop_from_aic(shape=[16, 16], dtype=pl.FP32)
    pl.tfree_to_aic(r)
    out = pl.store(r, [0, 0], out)
    return out


@pl.jit
def entry(x: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]):
    out = relay(x, out)
    return out
