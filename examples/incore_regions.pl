# Core-group regions and what OutlineIncoreScopes makes of them.
# - Two regions in an Opaque function: InCore functions `<function>_incore_<n>`, and the
#   function becomes Orchestration because it now launches tasks.
# - name_hint= names the function; the same hint twice gets a numbered second name.
# - A region that only stores into a tensor created before it: the tensor is an Out
#   parameter, the function returns it, and the caller reads the new version after.
# - A loop-carried accumulator read by a region: the iter arg is captured, not its
#   initial value.
# - A region writing a slice made inside the loop: nothing is carried by the loop.
# - A scalar computed in a region and read after it is computed by the caller instead
#   (a kernel cannot return a scalar).
import pypto.language as pl

ROWS = 32
COLS = 64
BANDS = 4


@pl.jit.opaque
def two_stages(x: pl.Tensor[[ROWS, COLS], pl.FP32]) -> pl.Tensor[[ROWS, COLS], pl.FP32]:
    with pl.at(level=pl.Level.CORE_GROUP):
        t = pl.load(x, [0, 0], [ROWS, COLS])
        y = pl.add(t, t)
    with pl.at(level=pl.Level.CORE_GROUP):
        z = pl.mul(y, y)
        out = pl.create_tensor([ROWS, COLS], pl.FP32)
        out = pl.store(z, [0, 0], out)
    return out


@pl.jit
def named_twice(x: pl.Tensor[[ROWS, COLS], pl.FP32], out: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]]):
    buf = pl.create_tensor([ROWS, COLS], pl.FP32)
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="fill"):
        pl.store(pl.tile.full([ROWS, COLS], dtype=pl.FP32, value=0.0), [0, 0], buf)
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="fill"):
        t = pl.load(buf, [0, 0], [ROWS, COLS])
        pl.store(pl.add(t, pl.load(x, [0, 0], [ROWS, COLS])), [0, 0], out)
    return out


@pl.jit
def banded(x: pl.Tensor[[BANDS * ROWS, COLS], pl.FP32], out: pl.Out[pl.Tensor[[BANDS * ROWS, COLS], pl.FP32]]):
    for b in pl.range(BANDS):
        row = b * ROWS
        src = pl.slice(x, [ROWS, COLS], [row, 0])
        dst = pl.slice(out, [ROWS, COLS], [row, 0])
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="band_copy"):
            t = pl.load(src, [0, 0], [ROWS, COLS])
            pl.store(pl.mul(t, 2.0), [0, 0], dst)
    return out


@pl.jit
def accumulate(x: pl.Tensor[[ROWS, COLS], pl.FP32], acc: pl.InOut[pl.Tensor[[ROWS, COLS], pl.FP32]]):
    for k in pl.range(BANDS):
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="accumulate_step"):
            cur = pl.load(acc, [0, 0], [ROWS, COLS])
            scale = k * 2 + 1
            t = pl.load(x, [0, 0], [ROWS, COLS])
            pl.store(pl.add(cur, pl.mul(t, scale)), [0, 0], acc)
        last = scale
    return acc
