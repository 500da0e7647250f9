# Four ranks pass a row around a ring. Each rank publishes its row in a window that all
# ranks can see, raises a flag on the next rank, waits for the flag raised by the
# previous one, and then reads the previous rank's row. The distributed language is
# imported as `pld`; the IR printer imports it again when it prints `pld` operations. A
# communication context is a value like any other: `previous_rank` takes one as a
# `pld.CommCtx` parameter.
import pypto.language as pl
import pypto.language.distributed as pld

RANKS = 4
WIDTH = 128


@pl.jit.inline
def previous_rank(ctx: pld.CommCtx):
    me = pld.rank(ctx)
    count = pld.nranks(ctx)
    return (me + count - 1) % count


@pl.jit.incore
def shift_from_previous(
    mine: pl.Tensor[[1, WIDTH], pl.FP16],
    got: pl.Out[pl.Tensor[[1, WIDTH], pl.FP16]],
    shared: pld.DistributedTensor[[1, WIDTH], pl.FP16],
    flags: pld.DistributedTensor[[RANKS, 1], pl.INT32],
):
    ctx = pld.get_comm_ctx(shared)
    me = pld.rank(ctx)
    count = pld.nranks(ctx)
    row = pl.load(mine, [0, 0], [1, WIDTH])
    shared = pl.store(row, [0, 0], shared)
    pld.system.notify(flags, peer=(me + 1) % count, offsets=[me, 0], value=1, op=pld.NotifyOp.Set)
    previous = previous_rank(ctx)
    pld.system.wait(flags, offsets=[previous, 0], expected=1, cmp=pld.WaitCmp.Eq)
    incoming = pld.tile.remote_load(shared, peer=previous, offsets=[0, 0], shape=[1, WIDTH])
    got = pl.store(incoming, [0, 0], got)
    return got


@pl.jit
def on_chip(
    mine: pl.Tensor[[1, WIDTH], pl.FP16],
    got: pl.Out[pl.Tensor[[1, WIDTH], pl.FP16]],
    shared: pld.DistributedTensor[[1, WIDTH], pl.FP16],
    flags: pld.DistributedTensor[[RANKS, 1], pl.INT32],
):
    return shift_from_previous(mine, got, shared, flags)


@pl.jit.host
def ring_shift(
    rows: pl.Tensor[[RANKS, 1, WIDTH], pl.FP16],
    shifted: pl.Out[pl.Tensor[[RANKS, 1, WIDTH], pl.FP16]],
):
    row_buf = pld.alloc_window_buffer([1, WIDTH], dtype=pl.FP16)
    flag_buf = pld.alloc_window_buffer([RANKS, 1], dtype=pl.INT32)
    for r in pl.range(pld.world_size()):
        shared = pld.window(row_buf, [1, WIDTH], dtype=pl.FP16)
        flags = pld.window(flag_buf, [RANKS, 1], dtype=pl.INT32)
        on_chip(rows[r], shifted[r], shared, flags, device=r)
