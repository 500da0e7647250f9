# The merge of several sorted lists (issue 11): `pl.tile.mrgsort_format2`, which PyPTO
# reaches through its IR builder (ops.md §2.3), of two and of four lists with a scratch
# tile (one with `exhausted=True`), and `pl.tensor.mrgsort_format2` of three tensors. Each
# is PTO-ISA's TMRGSORT as its CPU simulator computes it: the head of the list whose value
# is largest goes next (the earlier list on a tie), one (value, index) pair at a time,
# until the result is full, the lists are empty or, with `exhausted=True`, one list is.
# The harness build prints what `plc run` prints (tests/compile.rs); tests/run.rs checks
# the values.
import pypto.language as pl


@pl.jit.incore
def merge(
    x: pl.Tensor[[4, 64], pl.FP32],
    y: pl.Tensor[[3, 32], pl.FP32],
    two: pl.Out[pl.Tensor[[1, 256], pl.FP32]],
    four: pl.Out[pl.Tensor[[1, 512], pl.FP32]],
    joined: pl.Out[pl.Tensor[[1, 96], pl.FP32]],
):
    idx = pl.tile.arange(0, [1, 64], dtype=pl.UINT32)
    r0 = pl.tile.sort32(pl.load(x, [0, 0], [1, 64]), idx)
    r1 = pl.tile.sort32(pl.load(x, [1, 0], [1, 64]), idx)
    r2 = pl.tile.sort32(pl.load(x, [2, 0], [1, 64]), idx)
    r3 = pl.tile.sort32(pl.load(x, [3, 0], [1, 64]), idx)
    tmp2 = pl.tile.create_tile([1, 256], dtype=pl.FP32)
    two = pl.store(pl.tile.mrgsort_format2(r0, r1, tmp2), [0, 0], two)
    tmp4 = pl.tile.create_tile([1, 512], dtype=pl.FP32)
    four = pl.store(pl.tile.mrgsort_format2(r0, r1, r2, r3, tmp4, exhausted=True), [0, 0], four)
    ya = pl.slice(y, [1, 32], [0, 0])
    yb = pl.slice(y, [1, 32], [1, 0])
    yc = pl.slice(y, [1, 32], [2, 0])
    joined = pl.assemble(joined, pl.tensor.mrgsort_format2(ya, yb, yc), [0, 0])
    return two, four, joined


@pl.jit
def entry(
    x: pl.Tensor[[4, 64], pl.FP32],
    y: pl.Tensor[[3, 32], pl.FP32],
    two: pl.Out[pl.Tensor[[1, 256], pl.FP32]],
    four: pl.Out[pl.Tensor[[1, 512], pl.FP32]],
    joined: pl.Out[pl.Tensor[[1, 96], pl.FP32]],
):
    two, four, joined = merge(x, y, two, four, joined)
    return two, four, joined
