# E0207: a Tile annotation names at most one memory space.
import pypto.language as pl


@pl.function(type=pl.FunctionType.InCore)
def kernel(
    a: pl.Tensor[[16, 32], pl.FP32],
    t: pl.Tile[[16, 32], pl.FP32, pl.MemorySpace.Vec, pl.MemorySpace.Mat],
    out: pl.Out[pl.Tensor[[16, 32], pl.FP32]],
) -> pl.Tensor[[16, 32], pl.FP32]:
    fine: pl.Tile[[16, 32], pl.FP32, pl.MemorySpace.Vec] = pl.load(a, [0, 0], [16, 32])
    out = pl.store(fine, [0, 0], out)
    return out
