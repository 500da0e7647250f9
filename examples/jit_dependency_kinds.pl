# Every `@pl.jit` sub-decorator, each called by bare name from the `@pl.jit` entry, which
# makes it a dependency of the entry: an incore kernel, an inline helper (spliced into its
# caller), an opaque stage with its own loop and scope, and a graph layer called once per
# layer. Shows also a bare dtype scalar parameter (`bands: pl.INDEX`).
import pypto.language as pl

TILE = 64
LAYERS = 3
BANDS = 256 // TILE


@pl.jit.incore
def square_tile(x: pl.Tensor, y: pl.Out[pl.Tensor]):
    t = pl.load(x, [0, 0], [TILE, TILE])
    pl.store(pl.mul(t, t), [0, 0], y)
    return y


@pl.jit.inline
def add_into(a: pl.Tensor, c: pl.InOut[pl.Tensor]):
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="add_into_tile"):
        ta = pl.load(a, [0, 0], [TILE, TILE])
        tc = pl.load(c, [0, 0], [TILE, TILE])
        pl.store(pl.add(ta, tc), [0, 0], c)
    return c


@pl.jit.opaque
def halve_bands(src: pl.Tensor, dst: pl.Out[pl.Tensor], bands: pl.INDEX):
    for b in pl.range(bands):
        with pl.at(level=pl.Level.CORE_GROUP):
            band = pl.load(src, [b * TILE, 0], [TILE, TILE])
            pl.store(pl.mul(band, 0.5), [b * TILE, 0], dst)
    return dst


@pl.jit.graph
def layer_step(w: pl.Tensor, acc: pl.InOut[pl.Tensor]):
    with pl.at(level=pl.Level.CORE_GROUP):
        tw = pl.load(w, [0, 0], [TILE, TILE])
        ta = pl.load(acc, [0, 0], [TILE, TILE])
        pl.store(pl.add(pl.mul(ta, tw), ta), [0, 0], acc)
    return acc


@pl.jit
def run_all(
    x: pl.Tensor,
    w: pl.Tensor,
    sq: pl.Out[pl.Tensor],
    acc: pl.InOut[pl.Tensor],
    halves: pl.Out[pl.Tensor],
):
    sq = square_tile(x, sq)
    acc = add_into(sq, acc)
    for i in pl.range(LAYERS):
        acc = layer_step(w, acc)
    halves = halve_bands(x, halves, BANDS)
    return sq, acc, halves
