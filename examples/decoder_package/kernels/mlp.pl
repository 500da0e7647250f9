# A device kernel in a sub-package: it imports the package's constants with `..config`.
import pypto.language as pl

from ..config import HIDDEN, ROW_TILE


@pl.jit.incore
def mlp_rows(
    x: pl.Tensor[[ROW_TILE, HIDDEN], pl.FP32],
    w: pl.Tensor[[HIDDEN, HIDDEN], pl.FP32],
    out: pl.Out[pl.Tensor[[ROW_TILE, HIDDEN], pl.FP32]],
):
    tx = pl.load(x, [0, 0], [ROW_TILE, HIDDEN], target_memory=pl.MemorySpace.Mat)
    tw = pl.load(w, [0, 0], [HIDDEN, HIDDEN], target_memory=pl.MemorySpace.Mat)
    left = pl.move(tx, target_memory=pl.MemorySpace.Left)
    right = pl.move(tw, target_memory=pl.MemorySpace.Right)
    acc = pl.matmul(left, right)
    out = pl.store(acc, [0, 0], out)
    return out
