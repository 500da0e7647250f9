# The `pl.tensor.*` ops of ops.md §2.2 that make, reshape, join, sort, multiply or
# reinterpret tensors, each spelled as PyPTO spells it and each result assembled into an
# Out tensor; the orchestration marks a tensor for dumping (`pl.tensor.dump_tag`) and
# passes an argument with no dependency (`pl.tensor.no_dep`). The harness build prints
# what `plc run` prints (tests/compile.rs); tests/run.rs checks the values.
import pypto.language as pl

R = 4
C = 8


@pl.jit.incore
def shapes(
    x: pl.Tensor[[R, C], pl.FP32],
    made: pl.Out[pl.Tensor[[R, 4 * C], pl.FP32]],
    moved: pl.Out[pl.Tensor[[C, 2 * R], pl.FP32]],
    counts: pl.Out[pl.Tensor[[2, C], pl.INT32]],
):
    zeros = pl.tensor.create([R, C], dtype=pl.FP32)
    zeros = pl.tensor.expands(zeros, 0.0)
    ones = pl.tensor.create_tensor([R, C], dtype=pl.FP32, init_value=1.0)
    made = pl.tensor.assemble(made, pl.tensor.add(zeros, ones), [0, 0])
    made = pl.tensor.assemble(made, pl.tensor.concat(x, pl.tensor.neg(x)), [0, C])
    part = pl.tensor.set_validshape(pl.tensor.muls(x, 2.0), 3, 5)
    made = pl.tensor.assemble(made, pl.tensor.fillpad(part, pad_value=pl.PadValue.min), [0, 3 * C])
    moved = pl.tensor.assemble(moved, pl.tensor.transpose(x, 0, 1), [0, 0])
    flat = pl.tensor.reshape(x, [C, R])
    moved = pl.tensor.assemble(moved, pl.tensor.fillpad_expand(pl.tensor.slice(flat, [C, R], [0, 0], valid_shape=[6, 3]), [C, R], pad_value=pl.PadValue.zero), [0, R])
    counts = pl.tensor.assemble(counts, pl.tensor.arange(3, [1, C], dtype=pl.INT32), [0, 0])
    blocks = pl.tensor.get_block_idx() * 100 + pl.tensor.get_block_num() * 10 + pl.tensor.get_subblock_idx()
    counts = pl.tensor.assemble(counts, pl.tensor.arange(blocks, [1, C], dtype=pl.INT32, descending=True), [1, 0])
    return made, moved, counts


@pl.jit.incore
def products(
    a: pl.Tensor[[R, C], pl.FP32],
    b: pl.Tensor[[C, R], pl.FP32],
    out: pl.Out[pl.Tensor[[R, 3 * R], pl.FP32]],
):
    ab = pl.tensor.matmul(a, b)
    out = pl.tensor.assemble(out, ab, [0, 0])
    out = pl.tensor.assemble(out, pl.tensor.matmul_acc(ab, a, b), [0, R])
    out = pl.tensor.assemble(out, pl.tensor.matmul(b, a, a_trans=True, b_trans=True, out_dtype=pl.FP32), [0, 2 * R])
    return out


@pl.jit.incore
def sorting(
    scores: pl.Tensor[[1, 64], pl.FP32],
    sorted_pairs: pl.Out[pl.Tensor[[1, 128], pl.FP32]],
    merged: pl.Out[pl.Tensor[[1, 128], pl.FP32]],
    top: pl.Out[pl.Tensor[[1, 64], pl.FP32]],
    spread: pl.Out[pl.Tensor[[1, 128], pl.FP32]],
):
    ids = pl.tensor.arange(0, [1, 64], dtype=pl.UINT32)
    runs = pl.tensor.sort32(scores, ids)
    sorted_pairs = pl.tensor.assemble(sorted_pairs, runs, [0, 0])
    merged = pl.tensor.assemble(merged, pl.tensor.mrgsort(runs, block_len=64), [0, 0])
    whole = pl.tensor.mrgsort_format1(runs, 64)
    top = pl.tensor.assemble(top, pl.tensor.gather_mask(whole, pl.tile.MaskPattern.P0101), [0, 0])
    base = pl.tensor.full([1, 128], dtype=pl.FP32, value=-2.0)
    spread = pl.tensor.assemble(spread, pl.tensor.scatter_mask(scores, base, pl.tile.MaskPattern.P1010), [0, 0])
    return sorted_pairs, merged, top, spread


@pl.jit.incore
def bits(
    x: pl.Tensor[[R, C], pl.FP32],
    draws: pl.Out[pl.Tensor[[R, C], pl.UINT32]],
    words: pl.Out[pl.Tensor[[R, C], pl.INT32]],
):
    draws = pl.tensor.assemble(draws, pl.tensor.random(1, 2, 3, 4, 5, 6, [R, C]), [0, 0])
    words = pl.tensor.assemble(words, pl.tensor.reinterpret_view(x, pl.INT32), [0, 0])
    return draws, words


@pl.jit
def entry(
    x: pl.Tensor[[R, C], pl.FP32],
    b: pl.Tensor[[C, R], pl.FP32],
    scores: pl.Tensor[[1, 64], pl.FP32],
    made: pl.Out[pl.Tensor[[R, 4 * C], pl.FP32]],
    moved: pl.Out[pl.Tensor[[C, 2 * R], pl.FP32]],
    counts: pl.Out[pl.Tensor[[2, C], pl.INT32]],
    prods: pl.Out[pl.Tensor[[R, 3 * R], pl.FP32]],
    sorted_pairs: pl.Out[pl.Tensor[[1, 128], pl.FP32]],
    merged: pl.Out[pl.Tensor[[1, 128], pl.FP32]],
    top: pl.Out[pl.Tensor[[1, 64], pl.FP32]],
    spread: pl.Out[pl.Tensor[[1, 128], pl.FP32]],
    draws: pl.Out[pl.Tensor[[R, C], pl.UINT32]],
    words: pl.Out[pl.Tensor[[R, C], pl.INT32]],
):
    made, moved, counts = shapes(x, made, moved, counts)
    pl.tensor.dump_tag(made)
    prods = products(pl.tensor.no_dep(x), b, prods)
    sorted_pairs, merged, top, spread = sorting(scores, sorted_pairs, merged, top, spread)
    draws, words = bits(x, draws, words)
    return made, moved, counts, prods, sorted_pairs, merged, top, spread, draws, words
