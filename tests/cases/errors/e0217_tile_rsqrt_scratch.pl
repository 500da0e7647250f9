# E0217: the scratch tile of `pl.tile.rsqrt` has the input's dtype and shape, and a tile takes
# no `high_precision=True` (the tensor form's flag; on a tile the scratch is the precise form).
import pypto.language as pl


@pl.function(type=pl.FunctionType.InCore)
def inv_sqrt(x: pl.Tensor[[16, 32], pl.FP32], out: pl.Out[pl.Tensor[[16, 32], pl.FP32]]) -> pl.Tensor[[16, 32], pl.FP32]:
    t = pl.load(x, [0, 0], [16, 32])
    small = pl.tile.create([16, 16], dtype=pl.FP32, target_memory=pl.MemorySpace.Vec)
    half = pl.tile.create([16, 32], dtype=pl.FP16, target_memory=pl.MemorySpace.Vec)
    a = pl.tile.rsqrt(t, small)
    b = pl.tile.rsqrt(t, tmp=half)
    c = pl.rsqrt(t, high_precision=True)
    d = pl.rsqrt(t, high_precision=False)
    return pl.store(d, [0, 0], out)
