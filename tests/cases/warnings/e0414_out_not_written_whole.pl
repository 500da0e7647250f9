# E0414: an entry's `Out` tensor that its writes may not cover. Each entry below either
# warns (a comment says why) or is one the check must accept as written whole.
import pypto.language as pl

R = 64
C = 32
T = 16


@pl.jit.incore
def band(x: pl.Tensor[[R, C], pl.FP32], row: pl.Scalar[pl.INDEX], out: pl.Out[pl.Tensor[[R, C], pl.FP32]]):
    t = pl.load(x, [row, 0], [T, C])
    pl.store(pl.exp(t), [row, 0], out)
    return out


@pl.jit
def whole_by_calls(x: pl.Tensor[[R, C], pl.FP32], out: pl.Out[pl.Tensor[[R, C], pl.FP32]]):
    # Four calls with constant rows cover every band: no warning.
    for i in pl.range(R // T):
        out = band(x, i * T, out)
    return out


@pl.jit
def missing_band(x: pl.Tensor[[R, C], pl.FP32], out: pl.Out[pl.Tensor[[R, C], pl.FP32]]):
    # Rows 48..64 are never written.
    for i in pl.range(3):
        out = band(x, i * T, out)
    return out


@pl.jit
def run_time_count(x: pl.Tensor[[R, C], pl.FP32], n: pl.Scalar[pl.INDEX], out: pl.Out[pl.Tensor[[R, C], pl.FP32]]):
    # The trip count is an argument: fewer than four bands may be written.
    for i in pl.range(n):
        out = band(x, i * T, out)
    return out


@pl.jit
def under_condition(x: pl.Tensor[[R, C], pl.FP32], n: pl.Scalar[pl.INDEX], out: pl.Out[pl.Tensor[[R, C], pl.FP32]]):
    # The last band only when `n` is positive.
    for i in pl.range(3):
        out = band(x, i * T, out)
    if n > 0:
        out = band(x, 48, out)
    return out


@pl.jit
def both_branches_known(x: pl.Tensor[[R, C], pl.FP32], out: pl.Out[pl.Tensor[[R, C], pl.FP32]]):
    # A constant condition: the branch taken is known, and it writes the last band.
    for i in pl.range(3):
        out = band(x, i * T, out)
    if R > C:
        out = band(x, 48, out)
    else:
        out = band(x, 0, out)
    return out


@pl.jit
def read_offset(x: pl.Tensor[[R, C], pl.FP32], rows: pl.Tensor[[4], pl.INT32], out: pl.Out[pl.Tensor[[R, C], pl.FP32]]):
    # The offset is read from a tensor at run time.
    for i in pl.range(4):
        row = pl.cast(pl.tensor.read(rows, [i]), target_type=pl.INDEX)
        out = band(x, row, out)
    return out


@pl.jit
def while_loop(x: pl.Tensor[[R, C], pl.FP32], n: pl.Scalar[pl.INDEX], out: pl.Out[pl.Tensor[[R, C], pl.FP32]]):
    # A `while` loop decides how many bands.
    i = 0
    while i < n:
        out = band(x, i * T, out)
        i = i + 1
    return out


@pl.jit
def window_of_out(x: pl.Tensor[[R, C], pl.FP32], out: pl.Out[pl.Tensor[[R, C], pl.FP32]]):
    # Writes through a window (`pl.slice`) are placed at the window's offset: whole.
    top = pl.slice(out, [32, C], [0, 0])
    bottom = pl.slice(out, [32, C], [32, 0])
    with pl.at(level=pl.Level.CORE_GROUP):
        t = pl.load(x, [0, 0], [32, C])
        pl.store(t, [0, 0], top)
        u = pl.load(x, [32, 0], [32, C])
        pl.store(u, [0, 0], bottom)
    return out


@pl.jit
def dynamic_rows(x: pl.Tensor[[pl.dynamic("N"), C], pl.FP32], out: pl.Out[pl.Tensor[[pl.dynamic("N"), C], pl.FP32]]):
    # A shape known only at run time: the check says nothing.
    rows = pl.tensor.dim(x, 0)
    for i in pl.range(rows // T):
        with pl.at(level=pl.Level.CORE_GROUP):
            t = pl.load(x, [i * T, 0], [T, C])
            pl.store(t, [i * T, 0], out)
    return out
