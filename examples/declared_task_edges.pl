# Explicit task edges between CORE_GROUP scopes. `with pl.at(...) as tid` binds the task
# id of a scope, `deps=[...]` makes a later scope wait for it, and a list comprehension
# over a `pl.array` of task ids collects the producers of a whole loop.
# Shows: `name_hint=`, `as tid`, `deps=` (a name and a list comprehension), `x[:] = e`
# slice assignment, `pl.create_tensor` with a keyword argument, `pl.array`, subscript
# assignment, returning two values.
import pypto.language as pl

PARTS = 4
BAND = 32
WIDTH = 128
HEIGHT = PARTS * BAND


@pl.jit
def staged_square(x: pl.Tensor, doubled: pl.Out[pl.Tensor], squared: pl.Out[pl.Tensor]):
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="double_input") as first:
        doubled[:] = pl.add(x, x)
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="square_doubled", deps=[first]):
        squared[:] = pl.mul(doubled, doubled)
    return doubled, squared


@pl.jit
def banded_negate(src: pl.Tensor, out: pl.Out[pl.Tensor]):
    scratch = pl.create_tensor([HEIGHT, WIDTH], pl.FP32, manual_dep=True)
    writers = pl.array.create(PARTS, pl.TASK_ID)
    for p in pl.range(PARTS):
        row = p * BAND
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="negate_band") as tid:
            band = pl.load(src, [row, 0], [BAND, WIDTH])
            pl.store(pl.neg(band), [row, 0], scratch)
        writers[p] = tid
    with pl.at(
        level=pl.Level.CORE_GROUP,
        name_hint="copy_bands",
        deps=[writers[k] for k in range(PARTS)],
    ):
        for p in pl.range(PARTS):
            band = pl.load(scratch, [p * BAND, 0], [BAND, WIDTH])
            pl.store(band, [p * BAND, 0], out)
    return out
