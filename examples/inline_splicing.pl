# InlineFunctions on `@pl.jit` functions: every `@pl.jit.inline` helper is spliced into
# its callers, then removed.
# - `fill_pair` writes two `pl.Out` tensors and returns both: the writes rebind the
#   caller's variables (`lo`, `hi`), and the unpacking `first, second = fill_pair(...)`
#   takes the two returned values.
# - `band_sum` is called twice by the entry and once more through `refine_layer`: each
#   splice gets fresh names of its own (`ta_inline1`, `ta_inline2`, ...).
# - `refine_layer` calls the inline `band_sum` inside a `pl.graph("refine")` region (a
#   nested inline call). Spliced into the loop of the entry, the region ends up in the
#   loop, where OutlineGraphScopes outlines it later.
# - `last_layer` takes a scalar (given a constant) and its call sits inside a larger
#   expression (a `pl.range` bound): the call is replaced by the returned value.
import pypto.language as pl

ROWS = 64
COLS = 64
LAYERS = 3


@pl.jit.incore
def copy_tile(src: pl.Tensor, dst: pl.Out[pl.Tensor]):
    t = pl.load(src, [0, 0], [ROWS, COLS])
    pl.store(t, [0, 0], dst)
    return dst


@pl.jit.inline
def fill_pair(src: pl.Tensor, lo: pl.Out[pl.Tensor], hi: pl.Out[pl.Tensor]):
    lo = copy_tile(src, lo)
    hi = copy_tile(src, hi)
    return lo, hi


@pl.jit.inline
def band_sum(a: pl.Tensor, b: pl.Tensor, acc: pl.InOut[pl.Tensor]):
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="band_sum"):
        ta = pl.load(a, [0, 0], [ROWS, COLS])
        tb = pl.load(b, [0, 0], [ROWS, COLS])
        total = pl.add(ta, tb)
        pl.store(total, [0, 0], acc)
    return acc


@pl.jit.inline
def refine_layer(w: pl.Tensor, acc: pl.InOut[pl.Tensor]):
    with pl.graph("refine"):
        acc = band_sum(w, acc, acc)
    return acc


@pl.jit.inline
def last_layer(layers: pl.INDEX):
    last = layers - 1
    return last


@pl.jit
def entry(x: pl.Tensor, w: pl.Tensor, lo: pl.Out[pl.Tensor], hi: pl.Out[pl.Tensor], acc: pl.InOut[pl.Tensor]):
    first, second = fill_pair(x, lo, hi)
    acc = band_sum(first, second, acc)
    acc = band_sum(second, first, acc)
    for i in pl.range(last_layer(LAYERS) + 1):
        acc = refine_layer(w, acc)
    return first, second, acc
