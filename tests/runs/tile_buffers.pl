# Explicit tile buffers (newer than ops.md; PyPTO's codegen tests use them): a cube kernel
# keeps two L1 slots and two pairs of L0B/L0C slots and rotates through them in pipelined
# loops, the load, the extract and the matmul each told which slot to fill (`out=`), each
# slot handed back once it is used (`pl.tile.release`). A set of buffers is a tuple of
# tiles of one type; `buffers[i]` is slot i, `i` a constant or known at run time. On the
# CPU every tile has storage of its own: the results are computed as without `out=`, and a
# release does nothing.
# run: --entry entry
import pypto.language as pl


@pl.jit.incore
def rotate(
    source: pl.Tensor[[64, 128], pl.FP32],
    weights: pl.Tensor[[16, 32], pl.FP32],
    out: pl.Out[pl.Tensor[[32, 128], pl.FP32]],
):
    l1_set = pl.create_tile_buffers(2, [32, 128], pl.FP32, pl.Mem.Mat)
    right_set = pl.create_tile_buffers(2, [32, 64], pl.FP32, pl.Mem.Right)
    acc_set = pl.create_tile_buffers(2, [16, 64], pl.FP32, pl.Mem.Acc)
    lhs = pl.move(pl.load(weights, [0, 0], [16, 32], target_memory=pl.Mem.Mat), target_memory=pl.Mem.Left)
    for stack in pl.range(2):
        l1_slot = l1_set[stack % 2]
        staged = pl.load(source, [stack * 32, 0], [32, 128], target_memory=pl.Mem.Mat, out=l1_slot)
        for col in pl.range(0, 128, 64):
            turn: pl.Scalar[pl.INDEX] = (col // 64) % 2
            right_slot = right_set[turn]
            acc_slot = acc_set[turn]
            right = pl.tile.extract(staged, 0, col, [32, 64], target_memory=pl.Mem.Right, out=right_slot)
            acc = pl.tile.matmul(lhs, right, out=acc_slot)
            out = pl.tile.store(acc, [stack * 16, col], out)
            pl.tile.release(right_slot)
            pl.tile.release(acc_slot)
        pl.tile.release(l1_slot)
    return out


@pl.jit
def entry(
    source: pl.Tensor[[64, 128], pl.FP32],
    weights: pl.Tensor[[16, 32], pl.FP32],
    out: pl.Out[pl.Tensor[[32, 128], pl.FP32]],
):
    out = rotate(source, weights, out)
    return out
