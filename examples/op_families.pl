# The reduction, broadcast and elementwise families PyPTO has and plc lacked (issue 11,
# missing ops of ops.md §5.1): products, column minima, arg-max/min positions, the
# `row_expand_*`/`col_expand_*` members, `sin`/`cos`, `fmod`/`fmods`, the part ops (on a
# partial tile: the valid region is the union), `get_block_num`/`get_subblock_idx`. The
# kernels compile against the tile library and print what `plc run` prints
# (tests/compile.rs); tests/run.rs checks their values computed by hand.
import pypto.language as pl

R = 8
C = 16


@pl.jit.incore
def reductions(
    x: pl.Tensor[[R, C], pl.FP32],
    prods: pl.Out[pl.Tensor[[R, 1], pl.FP32]],
    cols: pl.Out[pl.Tensor[[2, C], pl.FP32]],
    argmax: pl.Out[pl.Tensor[[R, 1], pl.INT32]],
    argmin: pl.Out[pl.Tensor[[R, 1], pl.INT32]],
    colarg: pl.Out[pl.Tensor[[2, C], pl.INT32]],
):
    t = pl.load(x, [0, 0], [R, C])
    small = pl.tile.adds(pl.tile.muls(t, 0.25), 1.0)
    tmp = pl.create_tile([R, C], dtype=pl.FP32)
    prods = pl.store(pl.row_prod(small, tmp), [0, 0], prods)
    cols = pl.store(pl.col_min(t), [0, 0], cols)
    cols = pl.store(pl.tile.col_prod(small), [1, 0], cols)
    argmax = pl.store(pl.row_argmax(t, tmp), [0, 0], argmax)
    argmin = pl.store(pl.tile.row_argmin(t, tmp_tile=tmp), [0, 0], argmin)
    colarg = pl.store(pl.col_argmax(t, tmp), [0, 0], colarg)
    colarg = pl.store(pl.col_argmin(t, tmp), [1, 0], colarg)
    return prods, cols, argmax, argmin, colarg


@pl.jit.incore
def broadcasts(
    x: pl.Tensor[[R, C], pl.FP32],
    rv: pl.Tensor[[R, 1], pl.FP32],
    cv: pl.Tensor[[1, C], pl.FP32],
    rows: pl.Out[pl.Tensor[[4 * R, C], pl.FP32]],
    cols: pl.Out[pl.Tensor[[6 * R, C], pl.FP32]],
):
    t = pl.load(x, [0, 0], [R, C])
    r = pl.load(rv, [0, 0], [R, 1])
    c = pl.load(cv, [0, 0], [1, C])
    rows = pl.store(pl.row_expand(t, r), [0, 0], rows)
    rows = pl.store(pl.row_expand_max(t, r), [R, 0], rows)
    rows = pl.store(pl.tile.row_expand_min(t, row_vec=r), [2 * R, 0], rows)
    rows = pl.store(pl.row_expand_expdif(t, r), [3 * R, 0], rows)
    cols = pl.store(pl.col_expand_add(t, c), [0, 0], cols)
    cols = pl.store(pl.col_expand_sub(t, c), [R, 0], cols)
    cols = pl.store(pl.col_expand_div(t, pl.tile.adds(pl.tile.abs(c), 0.5)), [2 * R, 0], cols)
    cols = pl.store(pl.col_expand_max(t, c), [3 * R, 0], cols)
    cols = pl.store(pl.col_expand_min(t, c), [4 * R, 0], cols)
    cols = pl.store(pl.tile.col_expand_expdif(t, col_vec=c), [5 * R, 0], cols)
    return rows, cols


@pl.jit.incore
def elementwise(
    x: pl.Tensor[[R, C], pl.FP32],
    y: pl.Tensor[[R, C], pl.FP32],
    trig: pl.Out[pl.Tensor[[2 * R, C], pl.FP32]],
    mods: pl.Out[pl.Tensor[[2 * R, C], pl.FP32]],
    parts: pl.Out[pl.Tensor[[4 * R, C], pl.FP32]],
    ids: pl.Out[pl.Tensor[[1, 2], pl.INT32]],
):
    t = pl.load(x, [0, 0], [R, C])
    u = pl.load(y, [0, 0], [R, C])
    trig = pl.store(pl.sin(t), [0, 0], trig)
    trig = pl.store(pl.tile.cos(t), [R, 0], trig)
    mods = pl.store(pl.fmod(pl.tile.muls(t, 7.0), pl.tile.adds(pl.tile.abs(u), 0.5)), [0, 0], mods)
    mods = pl.store(pl.fmods(pl.tile.muls(t, 7.0), -0.75), [R, 0], mods)
    part_u = pl.load(y, [0, 0], [R, C], valid_shape=[4, 8])
    parts = pl.store(pl.part_add(t, part_u), [0, 0], parts)
    parts = pl.store(pl.part_max(part_u, t), [R, 0], parts)
    parts = pl.store(pl.tile.part_min(t, part_u), [2 * R, 0], parts)
    parts = pl.store(pl.part_mul(t, part_u), [3 * R, 0], parts)
    n = pl.get_block_num()
    s = pl.tile.get_subblock_idx()
    w = pl.tile.full([1, 2], dtype=pl.INT32, value=0)
    w = pl.tile.adds(w, n * 10 + s)
    ids = pl.store(w, [0, 0], ids)
    return trig, mods, parts, ids


@pl.jit
def entry(
    x: pl.Tensor[[R, C], pl.FP32],
    y: pl.Tensor[[R, C], pl.FP32],
    rv: pl.Tensor[[R, 1], pl.FP32],
    cv: pl.Tensor[[1, C], pl.FP32],
    prods: pl.Out[pl.Tensor[[R, 1], pl.FP32]],
    cmins: pl.Out[pl.Tensor[[2, C], pl.FP32]],
    argmax: pl.Out[pl.Tensor[[R, 1], pl.INT32]],
    argmin: pl.Out[pl.Tensor[[R, 1], pl.INT32]],
    colarg: pl.Out[pl.Tensor[[2, C], pl.INT32]],
    rows: pl.Out[pl.Tensor[[4 * R, C], pl.FP32]],
    cols: pl.Out[pl.Tensor[[6 * R, C], pl.FP32]],
    trig: pl.Out[pl.Tensor[[2 * R, C], pl.FP32]],
    mods: pl.Out[pl.Tensor[[2 * R, C], pl.FP32]],
    parts: pl.Out[pl.Tensor[[4 * R, C], pl.FP32]],
    ids: pl.Out[pl.Tensor[[1, 2], pl.INT32]],
):
    prods, cmins, argmax, argmin, colarg = reductions(x, prods, cmins, argmax, argmin, colarg)
    rows, cols = broadcasts(x, rv, cv, rows, cols)
    trig, mods, parts, ids = elementwise(x, y, trig, mods, parts, ids)
    return prods, cmins, argmax, argmin, colarg, rows, cols, trig, mods, parts, ids
