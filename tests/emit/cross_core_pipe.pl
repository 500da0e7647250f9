# The cross-core pipes of a mixed kernel (issue 11, ops.md §2.4) in one kernel: it pushes
# towards the cube and pops what the cube would have pushed, which nothing did. `plc run`
# runs a pipe as a queue between the kernels a Group runs together; this kernel runs alone,
# so the pop fails, naming the op and the pipe (tests/run.rs; examples/cube_vector_pipe.pl runs a pipe).
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
