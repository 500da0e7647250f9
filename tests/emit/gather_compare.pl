# The compare form of gather (issue 11, ops.md §2.2-2.3): per row, the positions of the
# elements that compare true with `kvalue` (offset + row * columns + column) and how many
# there were. `pl.tile.gather_compare` on a tile, `pl.tensor.gather(..., kvalue=...)` and
# `pl.tensor.gather_compare` on a tensor; each returns a pair, unpacked. The harness build
# prints what `plc run` prints (tests/compile.rs); tests/run.rs checks the values.
import pypto.language as pl


@pl.jit.incore
def matches(
    x: pl.Tensor[[4, 16], pl.FP32],
    k: pl.Scalar[pl.FP32],
    above: pl.Out[pl.Tensor[[4, 8], pl.INT32]],
    above_counts: pl.Out[pl.Tensor[[1, 4], pl.INT32]],
    below: pl.Out[pl.Tensor[[4, 4], pl.INT32]],
    below_counts: pl.Out[pl.Tensor[[1, 4], pl.UINT32]],
):
    t = pl.load(x, [0, 0], [4, 16])
    scratch = pl.tile.create([4, 16], pl.UINT8)
    positions, counts = pl.tile.gather_compare(t, k, scratch, cmp_mode="gt", offset=100, out_cols=8)
    above = pl.store(positions, [0, 0], above)
    above_counts = pl.store(counts, [0, 0], above_counts)
    low, n = pl.tile.gather_compare(t, k, scratch, cmp_mode=3, out_cols=4, count_dtype=pl.UINT32)
    below = pl.store(low, [0, 0], below)
    below_counts = pl.store(n, [0, 0], below_counts)
    return above, above_counts, below, below_counts


@pl.jit.incore
def tensor_matches(
    x: pl.Tensor[[4, 16], pl.FP32],
    k: pl.Scalar[pl.FP32],
    equal: pl.Out[pl.Tensor[[4, 2], pl.INT32]],
    equal_counts: pl.Out[pl.Tensor[[1, 4], pl.INT32]],
    other: pl.Out[pl.Tensor[[4, 16], pl.INT32]],
    other_counts: pl.Out[pl.Tensor[[1, 4], pl.INT32]],
):
    hits, counts = pl.tensor.gather(x, kvalue=k, cmp_mode="ge", out_cols=2)
    equal = pl.assemble(equal, hits, [0, 0])
    equal_counts = pl.assemble(equal_counts, counts, [0, 0])
    rest, n = pl.tensor.gather_compare(x, k, cmp_mode="ne", offset=-1, out_cols=16)
    other = pl.assemble(other, rest, [0, 0])
    other_counts = pl.assemble(other_counts, n, [0, 0])
    return equal, equal_counts, other, other_counts


@pl.jit
def entry(
    x: pl.Tensor[[4, 16], pl.FP32],
    above: pl.Out[pl.Tensor[[4, 8], pl.INT32]],
    above_counts: pl.Out[pl.Tensor[[1, 4], pl.INT32]],
    below: pl.Out[pl.Tensor[[4, 4], pl.INT32]],
    below_counts: pl.Out[pl.Tensor[[1, 4], pl.UINT32]],
    equal: pl.Out[pl.Tensor[[4, 2], pl.INT32]],
    equal_counts: pl.Out[pl.Tensor[[1, 4], pl.INT32]],
    other: pl.Out[pl.Tensor[[4, 16], pl.INT32]],
    other_counts: pl.Out[pl.Tensor[[1, 4], pl.INT32]],
):
    above, above_counts, below, below_counts = matches(x, 0.25, above, above_counts, below, below_counts)
    equal, equal_counts, other, other_counts = tensor_matches(x, 0.5, equal, equal_counts, other, other_counts)
    return above, above_counts, below, below_counts, equal, equal_counts, other, other_counts
