# Ops of issue 11 (ops.md §2) with a meaning of their own: `pl.tri`, `fillpad_expand`
# (tile and tensor), `pl.tile.fillpad_inplace` (the tile itself updated), `pl.expand_clone`
# and `pl.tile.extract`. The harness build prints what `plc run` prints
# (tests/compile.rs); tests/run.rs checks the values.
import pypto.language as pl


@pl.jit.incore
def shaping(
    x: pl.Tensor[[8, 8], pl.FP32],
    row: pl.Tensor[[1, 8], pl.FP32],
    tris: pl.Out[pl.Tensor[[8, 16], pl.INT32]],
    grown: pl.Out[pl.Tensor[[8, 12], pl.FP32]],
    filled: pl.Out[pl.Tensor[[8, 8], pl.FP32]],
    cloned: pl.Out[pl.Tensor[[8, 8], pl.FP32]],
    window: pl.Out[pl.Tensor[[2, 4], pl.FP32]],
):
    tris = pl.store(pl.tri(1, [8, 8]), [0, 0], tris)
    tris = pl.store(pl.tile.tri(-2, [8, 8], dtype=pl.INT32, upper=True), [0, 8], tris)
    part = pl.load(x, [0, 0], [8, 8], valid_shape=[5, 6])
    grown = pl.store(pl.tile.fillpad_expand(part, [8, 12], pad_value=pl.PadValue.zero), [0, 0], grown)
    # The unified spelling writes the same values again.
    grown = pl.store(pl.fillpad_expand(part, [8, 12], pad_value=pl.PadValue.zero), [0, 0], grown)
    pl.tile.fillpad_inplace(part)
    filled = pl.store(part, [0, 0], filled)
    wide = pl.tensor.expand_clone(row, x)
    cloned = pl.store(pl.load(wide, [0, 0], [8, 8]), [0, 0], cloned)
    t = pl.load(x, [0, 0], [8, 8])
    window = pl.store(pl.tile.extract(t, 3, 2, [2, 4]), [0, 0], window)
    return tris, grown, filled, cloned, window


@pl.jit
def entry(
    x: pl.Tensor[[8, 8], pl.FP32],
    row: pl.Tensor[[1, 8], pl.FP32],
    tris: pl.Out[pl.Tensor[[8, 16], pl.INT32]],
    grown: pl.Out[pl.Tensor[[8, 12], pl.FP32]],
    filled: pl.Out[pl.Tensor[[8, 8], pl.FP32]],
    cloned: pl.Out[pl.Tensor[[8, 8], pl.FP32]],
    window: pl.Out[pl.Tensor[[2, 4], pl.FP32]],
):
    tris, grown, filled, cloned, window = shaping(x, row, tris, grown, filled, cloned, window)
    return tris, grown, filled, cloned, window
