# plc run: reads of an Out tensor's elements before anything writes them (E0806), at the
# op that reads them; what is computed from them stays undefined (E0804 at the end).
# The integer poison stays the poison through a conversion to a narrower integer (a tile's
# load and store wrap values to the dtype), so a copy through a tile stays undefined:
# `round_trip_int` prints zeros, as its harness does (PyPTO's test_submit_predicate
# programs load an INT32 `Out` tensor and store it back).
# run: --entry read_before_write
# run: --entry read_part --arg rows=8
# run: --entry round_trip_int
import pypto.language as pl

N = 16


@pl.jit.incore
def add_one(src: pl.Tensor[[N, N], pl.FP32], dst: pl.Out[pl.Tensor[[N, N], pl.FP32]]):
    t = pl.load(src, [0, 0], [N, N])
    pl.store(pl.add(t, 1.0), [0, 0], dst)
    return dst


@pl.jit.incore
def copy_rows(src: pl.Tensor[[N, N], pl.FP32], dst: pl.Out[pl.Tensor[[N, N], pl.FP32]], rows: pl.Scalar[pl.INDEX]):
    t = pl.load(src, [0, 0], [8, N])
    pl.store(t, [0, 0], dst)
    return dst


@pl.jit
def read_before_write(x: pl.Tensor[[N, N], pl.FP32], out: pl.Out[pl.Tensor[[N, N], pl.FP32]], copy: pl.Out[pl.Tensor[[N, N], pl.FP32]]):
    copy = add_one(out, copy)
    out = add_one(x, out)
    return out, copy


@pl.jit
def read_part(x: pl.Tensor[[N, N], pl.FP32], out: pl.Out[pl.Tensor[[N, N], pl.FP32]], rows: pl.Scalar[pl.INDEX]):
    out = copy_rows(x, out, rows)
    first = pl.tensor.read(out, [0, 0])
    last = pl.tensor.read(out, [N - 1, 0])
    return out


@pl.jit.incore
def copy_ints(src: pl.Tensor[[N, N], pl.INT32], dst: pl.Out[pl.Tensor[[N, N], pl.INT32]], small: pl.Out[pl.Tensor[[N, N], pl.INT8]]):
    t = pl.load(src, [0, 0], [N, N])
    pl.store(t, [0, 0], dst)
    b = pl.load(small, [0, 0], [N, N])
    pl.store(b, [0, 0], small)
    return dst, small


@pl.jit
def round_trip_int(out: pl.Out[pl.Tensor[[N, N], pl.INT32]], small: pl.Out[pl.Tensor[[N, N], pl.INT8]]):
    out, small = copy_ints(out, out, small)
    return out, small
