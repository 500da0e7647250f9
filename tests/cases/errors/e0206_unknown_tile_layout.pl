# E0206: the layouts `pl.move` takes (`blayout=`, `slayout=`) are members of `pl.TileLayout`;
# E0217: a value of another family is not a tile layout.
import pypto.language as pl


@pl.function(type=pl.FunctionType.InCore)
def relayout(x: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
    t = pl.load(x, [0, 0], [16, 16])
    u = pl.move(t, target_memory=pl.MemorySpace.Vec, blayout=pl.TileLayout.zigzag)
    v = pl.move(u, target_memory=pl.MemorySpace.Vec, slayout=pl.MemorySpace.Vec)
    return pl.store(v, [0, 0], out)
