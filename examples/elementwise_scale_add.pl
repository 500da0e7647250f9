# The smallest useful `@pl.jit` entry: one CORE_GROUP scope loads two tiles, computes
# `x * SCALE + y` with `pl.mul` and `pl.add`, and stores the sum into an Out tensor.
# Shows: imports, module constants built from earlier constants, bare `pl.Tensor` and
# `pl.Out[pl.Tensor]` parameters, a function docstring, keyword arguments of ops.
import pypto.language as pl

ROWS = 64
COLS = ROWS * 2
SCALE = 0.5


@pl.jit
def scale_add(x: pl.Tensor, y: pl.Tensor, out: pl.Out[pl.Tensor]):
    """out = x * SCALE + y over one ROWS x COLS tile."""
    with pl.at(level=pl.Level.CORE_GROUP):
        tile_x = pl.load(x, [0, 0], [ROWS, COLS], target_memory=pl.MemorySpace.Vec)
        tile_y = pl.load(y, [0, 0], [ROWS, COLS], target_memory=pl.MemorySpace.Vec)
        scaled = pl.mul(tile_x, SCALE)
        pl.store(pl.add(scaled, tile_y), [0, 0], out)
    return out
