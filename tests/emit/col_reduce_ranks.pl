# Column reductions of 3-D and 2-D operands (ops.md §2.2 TRED, §2.3 COLRED): a tensor
# `col_*` reduces the axis before the last (TRED's default axis -2) and keeps the leading
# ones, so a [2, 3, 4] tensor gives [2, 1, 4]; a tile `col_*` reduces the first axis
# (COLRED `[1] + shape[1:]`), so a [2, 3, 4] tile gives [1, 3, 4]; on 2 axes both give
# [1, cols]. The harness build prints what `plc run` prints (tests/compile.rs);
# tests/run.rs checks the values.
import pypto.language as pl

B = 2
R = 3
C = 4


@pl.jit.incore
def reduced(
    x: pl.Tensor[[B, R, C], pl.FP32],
    y: pl.Tensor[[R, C], pl.FP32],
    tens: pl.Out[pl.Tensor[[B, 6, C], pl.FP32]],
    tiles: pl.Out[pl.Tensor[[6, R, C], pl.FP32]],
    places: pl.Out[pl.Tensor[[B, 2, C], pl.INT32]],
    tile_places: pl.Out[pl.Tensor[[2, R, C], pl.INT32]],
    flat: pl.Out[pl.Tensor[[4, C], pl.FP32]],
):
    s: pl.Tensor[[B, 1, C], pl.FP32] = pl.tensor.col_sum(x)
    tens = pl.assemble(tens, s, [0, 0, 0])
    tens = pl.assemble(tens, pl.tensor.col_max(x), [0, 1, 0])
    tens = pl.assemble(tens, pl.tensor.col_min(x), [0, 2, 0])
    tens = pl.assemble(tens, pl.tensor.col_prod(x), [0, 3, 0])
    tens = pl.assemble(tens, pl.col_sum(x), [0, 4, 0])
    tens = pl.assemble(tens, pl.col_min(x), [0, 5, 0])
    hi: pl.Tensor[[B, 1, C], pl.INT32] = pl.tensor.col_argmax(x)
    places = pl.assemble(places, hi, [0, 0, 0])
    places = pl.assemble(places, pl.col_argmin(x), [0, 1, 0])
    t = pl.load(x, [0, 0, 0], [B, R, C])
    tmp = pl.create_tile([B, R, C], pl.FP32)
    ts: pl.Tile[[1, R, C], pl.FP32] = pl.tile.col_sum(t)
    tiles = pl.store(ts, [0, 0, 0], tiles)
    tiles = pl.store(pl.tile.col_max(t), [1, 0, 0], tiles)
    tiles = pl.store(pl.tile.col_min(t), [2, 0, 0], tiles)
    tiles = pl.store(pl.tile.col_prod(t), [3, 0, 0], tiles)
    tiles = pl.store(pl.col_sum(t, tmp), [4, 0, 0], tiles)
    tiles = pl.store(pl.col_max(t), [5, 0, 0], tiles)
    th: pl.Tile[[1, R, C], pl.INT32] = pl.tile.col_argmax(t, tmp)
    tile_places = pl.store(th, [0, 0, 0], tile_places)
    tile_places = pl.store(pl.col_argmin(t, tmp), [1, 0, 0], tile_places)
    ys: pl.Tensor[[1, C], pl.FP32] = pl.tensor.col_sum(y)
    flat = pl.assemble(flat, ys, [0, 0])
    flat = pl.assemble(flat, pl.col_max(y), [1, 0])
    u = pl.load(y, [0, 0], [R, C])
    us: pl.Tile[[1, C], pl.FP32] = pl.tile.col_sum(u)
    flat = pl.store(us, [2, 0], flat)
    flat = pl.store(pl.col_min(u), [3, 0], flat)
    return tens, tiles, places, tile_places, flat


@pl.jit
def entry(
    x: pl.Tensor[[B, R, C], pl.FP32],
    y: pl.Tensor[[R, C], pl.FP32],
    tens: pl.Out[pl.Tensor[[B, 6, C], pl.FP32]],
    tiles: pl.Out[pl.Tensor[[6, R, C], pl.FP32]],
    places: pl.Out[pl.Tensor[[B, 2, C], pl.INT32]],
    tile_places: pl.Out[pl.Tensor[[2, R, C], pl.INT32]],
    flat: pl.Out[pl.Tensor[[4, C], pl.FP32]],
):
    tens, tiles, places, tile_places, flat = reduced(x, y, tens, tiles, places, tile_places, flat)
    return tens, tiles, places, tile_places, flat
