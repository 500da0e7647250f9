# plc run: reads of an Out tensor's elements before anything writes them (E0806), at the
# op that reads them; what is computed from them stays undefined (E0804 at the end).
# run: --entry read_before_write
# run: --entry read_part --arg rows=8
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
