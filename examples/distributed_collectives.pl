# The collectives and one-sided transfers of the distributed language (issue 11, ops.md
# §2.7) across four ranks. Each rank's kernel reads its rank and the rank count from the
# communication context of a window, stores its row into the next rank's window (the tile
# and the short forms), waits on a signal with a deferred wait, fetches and sends rows
# through staging tiles, and loads a peer's row. The host then runs the collectives over
# the windows: a barrier, a broadcast from rank 0, all-gather, reduce-scatter, all-to-all
# (equal and counted), and tensor-level get, put and remote store. The distributed ops need
# several ranks running at once, which plc's CPU runtime is not: `plc run` stops at the
# first one and `plc compile` refuses them (E0601); `plc check` and the passes take them.
import pypto.language as pl
import pypto.language.distributed as pld

RANKS = 4
W = 64


@pl.jit.incore
def exchange(
    mine: pl.Tensor[[1, W], pl.FP32],
    got: pl.Out[pl.Tensor[[1, W], pl.FP32]],
    rows: pld.DistributedTensor[[RANKS, W], pl.FP32],
    copies: pld.DistributedTensor[[RANKS, W], pl.FP32],
    signal: pld.DistributedTensor[[RANKS, 1], pl.INT32],
):
    ctx = pld.system.get_comm_ctx(rows)
    me = pld.system.rank(ctx)
    count = pld.system.nranks(ctx)
    nxt = (me + 1) % count
    row = pl.load(mine, [0, 0], [1, W])
    pld.tile.remote_store(row, rows, nxt, [me, 0])
    pld.remote_store(row, copies, nxt, [me, 0], atomic=pl.AtomicType.Add)
    pld.system.defer_wait(signal, [me, 0], 1, cmp=pld.WaitCmp.Ge)
    stage = pl.create_tile([1, W], dtype=pl.FP32)
    pld.tile.get(got, nxt, rows, stage, dst_offsets=[0, 0], src_offsets=[me, 0], shape=[1, W])
    back = pl.create_tile([1, W], dtype=pl.FP32)
    pld.tile.put(copies, nxt, mine, stage, back, [me, 0], [0, 0], [1, W])
    prev = pld.remote_load(rows, (me + count - 1) % count, [me, 0], [1, W])
    got = pl.store(pl.add(prev, row), [0, 0], got)
    return got


@pl.jit
def on_chip(
    mine: pl.Tensor[[1, W], pl.FP32],
    got: pl.Out[pl.Tensor[[1, W], pl.FP32]],
    rows: pld.DistributedTensor[[RANKS, W], pl.FP32],
    copies: pld.DistributedTensor[[RANKS, W], pl.FP32],
    signal: pld.DistributedTensor[[RANKS, 1], pl.INT32],
):
    return exchange(mine, got, rows, copies, signal)


@pl.jit.host
def collectives(
    inputs: pl.Tensor[[RANKS, 1, W], pl.FP32],
    outputs: pl.Out[pl.Tensor[[RANKS, 1, W], pl.FP32]],
    counts: pl.Tensor[[RANKS], pl.INT32],
):
    row_buf = pld.alloc_window_buffer([RANKS, W], dtype=pl.FP32)
    copy_buf = pld.tensor.alloc_window_buffer([RANKS, W], dtype=pl.FP32)
    signal_buf = pld.alloc_window_buffer([RANKS, 1], dtype=pl.INT32)
    n = pld.system.world_size()
    for r in pl.range(n):
        rows = pld.window(row_buf, [RANKS, W], dtype=pl.FP32)
        copies = pld.window(copy_buf, [RANKS, W], dtype=pl.FP32)
        signal = pld.window(signal_buf, [RANKS, 1], dtype=pl.INT32)
        on_chip(inputs[r], outputs[r], rows, copies, signal, device=r)
    rows = pld.window(row_buf, [RANKS, W], dtype=pl.FP32)
    copies = pld.tensor.window(copy_buf, [RANKS, W], dtype=pl.FP32)
    signal = pld.window(signal_buf, [RANKS, 1], dtype=pl.INT32)
    signal = pld.tensor.barrier(signal)
    rows = pld.tensor.broadcast(rows, signal, root=0)
    copies = pld.tensor.allgather(inputs[0], copies, signal)
    rows = pld.tensor.reduce_scatter(rows, signal, op=pld.ReduceOp.Sum)
    rows = pld.tensor.allreduce(rows, signal, op=pld.ReduceOp.Sum)
    copies = pld.tensor.all_to_all(rows, copies, signal)
    copies = pld.tensor.all_to_all_v(rows, copies, signal, counts, counts)
    local = pl.create_tensor([1, W], dtype=pl.FP32)
    pld.tensor.get(local, 1, rows, [0, 0], [1, 0], [1, W])
    pld.tensor.put(copies, 2, local, [2, 0], [0, 0], [1, W], atomic=pl.AtomicType.Add)
    pld.tensor.remote_store(local, rows, 3, [3, 0])
    return outputs
