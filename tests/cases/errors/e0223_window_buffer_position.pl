# Where the host-orchestration ops of the distributed language may stand (ops.md §1.1 step
# 5, §4.1 "window buffers", "world_size"): `buf = pld.alloc_window_buffer(...)` only as the
# value of an assignment to one name, and both it and `pld.world_size()` only in a function
# of level HOST, outside core-group and SPMD regions.
import pypto.language as pl
import pypto.language.distributed as pld


@pl.jit.host
def host(x: pl.Tensor[[64], pl.FP32]):
    buf = pld.alloc_window_buffer(1024)
    n = pld.world_size()
    pld.alloc_window_buffer(8)
    a, b = pld.alloc_window_buffer(8), 0
    with pl.at(level=pl.Level.CORE_GROUP):
        m = pld.world_size()
        inner = pld.alloc_window_buffer(8)
    return x


@pl.jit
def not_host(x: pl.Tensor[[64], pl.FP32]):
    n = pld.world_size()
    buf = pld.alloc_window_buffer(8)
    return x
