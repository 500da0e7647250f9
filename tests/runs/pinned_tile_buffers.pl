# Tiles pinned to buffers of the user's (newer than ops.md; PyPTO's memory-reuse tests use
# it): `pl.tile.alloc_buffer(tile, addr=, size=, id=)` places a tile at a byte address of
# its memory, tiles with one `id` sharing a buffer (here `total` reuses the buffer of
# `left`, which is dead by then). On the CPU every tile has storage of its own, so a pin
# changes no value.
# run: --entry entry
import pypto.language as pl


@pl.jit.incore
def pinned_sum(
    a: pl.Tensor[[32, 32], pl.FP32],
    b: pl.Tensor[[32, 32], pl.FP32],
    out: pl.Out[pl.Tensor[[32, 32], pl.FP32]],
):
    left = pl.tile.load(a, [0, 0], [32, 32])
    pl.tile.alloc_buffer(left, addr=0, size=4096, id=0)
    right = pl.tile.load(b, [0, 0], [32, 32])
    pl.tile.alloc_buffer(right, addr=4096, size=4096, id=1)
    total = pl.tile.add(left, right)
    pl.tile.alloc_buffer(total, addr=0, size=4096, id=0)
    out = pl.tile.store(total, [0, 0], out)
    return out


@pl.jit
def entry(
    a: pl.Tensor[[32, 32], pl.FP32],
    b: pl.Tensor[[32, 32], pl.FP32],
    out: pl.Out[pl.Tensor[[32, 32], pl.FP32]],
):
    out = pinned_sum(a, b, out)
    return out
