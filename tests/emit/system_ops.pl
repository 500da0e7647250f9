# The `pl.system.*` ops with a CPU meaning (issue 11, ops.md §2.4): barriers, flags,
# fences and cache control do nothing on a CPU that runs everything in program order;
# `available_aiv_count()` / `available_cluster_count()` are those of the a2a3 device the
# CPU runtime stands for (48 and 24, as its `rt_available_*`); `task_invalid()` is the id of no task. The harness build prints what
# `plc run` prints (tests/compile.rs).
import pypto.language as pl

N = 16


@pl.jit.incore
def synced(x: pl.Tensor[[N, N], pl.FP32], out: pl.Out[pl.Tensor[[N, N], pl.FP32]]):
    pl.system.cacheinvalid(x, [N, N], [0, 0])
    t = pl.load(x, [0, 0], [N, N])
    pl.system.sync_set(0, pipe=2)
    pl.system.sync_wait(0, pipe=2)
    pl.system.sync_src(set_pipe=2, wait_pipe=3, event_id=1)
    pl.system.sync_dst(set_pipe=2, wait_pipe=3, event_id=1)
    pl.system.bar_v()
    pl.system.bar_m()
    pl.system.bar_all()
    pl.system.fence()
    cores = pl.system.available_aiv_count() * 100 + pl.system.available_cluster_count()
    out = pl.store(pl.tile.adds(t, cores), [0, 0], out)
    return out


@pl.jit
def entry(x: pl.Tensor[[N, N], pl.FP32], out: pl.Out[pl.Tensor[[N, N], pl.FP32]]):
    none = pl.system.task_invalid()
    ids = pl.array.create(2, pl.TASK_ID)
    ids = pl.array.update_element(ids, 0, none)
    out = synced(x, out)
    return out
