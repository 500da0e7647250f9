# `pl.tile.mrgsort_format2`, the merge of several sorted lists PyPTO reaches through its IR
# builder (ops.md §2.3, issue 11): two and four sorted runs with a scratch tile, one with
# `exhausted=True`. PTO-ISA leaves the multi-list merge target-defined (its CPU simulator
# has no body for it), so plc checks the program and refuses to run or compile it, naming
# the op (tests/run.rs; docs/kernels.md).
import pypto.language as pl


@pl.jit.incore
def merge(
    x: pl.Tensor[[4, 64], pl.FP32],
    two: pl.Out[pl.Tensor[[1, 256], pl.FP32]],
    four: pl.Out[pl.Tensor[[1, 512], pl.FP32]],
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
    return two, four


@pl.jit
def entry(
    x: pl.Tensor[[4, 64], pl.FP32],
    two: pl.Out[pl.Tensor[[1, 256], pl.FP32]],
    four: pl.Out[pl.Tensor[[1, 512], pl.FP32]],
):
    two, four = merge(x, two, four)
    return two, four
