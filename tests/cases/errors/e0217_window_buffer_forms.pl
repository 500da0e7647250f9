# The forms of the window-buffer and one-sided transfer ops (ops.md §2.7, §2.9, §4.1):
# `pld.alloc_window_buffer` takes a byte size, or a non-empty list of positive extents with
# `dtype=`, never `name=` (the name is the assignment's), and a program allocates each name
# once (E0214); `pld.window` views such a buffer (a Ptr handle), not a tensor; the target of
# `pld.tile.remote_load` and `remote_store` is a window (`pld.DistributedTensor`) with one
# offset per dimension (a list, even for a 1-D window) and, for a store, the source's dtype.
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Windows:
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self, x: pl.Tensor[[64], pl.FP32]):
        ok = pld.alloc_window_buffer([64, 128], dtype=pl.FP32)
        named = pld.alloc_window_buffer(8, name="other")
        sized = pld.alloc_window_buffer(8, dtype=pl.FP32)
        untyped = pld.alloc_window_buffer([256])
        empty = pld.alloc_window_buffer([], dtype=pl.FP32)
        zero = pld.alloc_window_buffer([0, 128], dtype=pl.FP32)
        view = pld.window(x, [16], dtype=pl.FP32)
        return ok

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_2(self):
        ok = pld.alloc_window_buffer(8)
        return ok

    @pl.function
    def kernel(
        self,
        plain: pl.Tensor[[64, 32], pl.FP32],
        data: pld.DistributedTensor[[64, 32], pl.FP32],
        halves: pld.DistributedTensor[[64, 32], pl.FP16],
        flat: pld.DistributedTensor[[64], pl.FP32],
        peer: pl.Scalar[pl.INT32],
    ):
        t = pld.tile.remote_load(plain, peer=peer, offsets=[0, 0], shape=[16, 8])
        u = pld.tile.remote_load(data, peer=peer, offsets=[0, 0], shape=[16, 8])
        v = pld.tile.remote_load(data, peer=peer, offsets=[0], shape=[16, 8])
        w = pld.tile.remote_load(flat, peer=peer, offsets=0, shape=[32])
        pld.tile.remote_store(u, target=plain, peer=peer, offsets=[0, 0])
        pld.tile.remote_store(u, target=data, peer=peer, offsets=[0])
        pld.tile.remote_store(u, target=halves, peer=peer, offsets=[0, 0])
        pld.tile.remote_store(u, target=data, peer=peer, offsets=[0, 0])
