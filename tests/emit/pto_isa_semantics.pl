# Ops whose meaning is PTO-ISA's, as its CPU simulator computes them (issue 11): `rem` and
# `rems` are TREM/TREMS (C's fmod, then the divisor added when the signs differ: the
# divisor's sign, a zero result keeping the dividend's), `gather_mask(output_dtype=)`
# reads each element's bits as the output dtype (TGATHER's same-width bit copy). The
# harness build prints what `plc run` prints (tests/compile.rs); tests/run.rs checks the
# values against the definitions.
import pypto.language as pl


@pl.jit.incore
def remainders(
    x: pl.Tensor[[4, 16], pl.FP32],
    k: pl.Tensor[[2, 16], pl.INT32],
    rems: pl.Out[pl.Tensor[[8, 16], pl.FP32]],
    irems: pl.Out[pl.Tensor[[3, 16], pl.INT32]],
    zeros: pl.Out[pl.Tensor[[1, 16], pl.FP32]],
):
    a = pl.load(x, [0, 0], [2, 16])
    # Divisors of both signs, never zero: |b| + 1/8 and its negation.
    b = pl.tile.adds(pl.tile.abs(pl.load(x, [2, 0], [2, 16])), 0.125)
    rems = pl.store(pl.tile.rem(a, b), [0, 0], rems)
    rems = pl.store(pl.rem(a, pl.tile.muls(b, -1.0)), [2, 0], rems)
    rems = pl.store(pl.tile.rems(a, 0.75), [4, 0], rems)
    rems = pl.store(pl.tile.rems(a, -0.75), [6, 0], rems)
    i = pl.load(k, [0, 0], [1, 16])
    j = pl.tile.ors(pl.load(k, [1, 0], [1, 16]), 1)
    irems = pl.store(pl.tile.rem(i, j), [0, 0], irems)
    irems = pl.store(pl.tile.rems(i, 3), [1, 0], irems)
    irems = pl.store(pl.tile.rems(i, -3), [2, 0], irems)
    # -1.5 % 0.75: fmod gives -0.0, which TREMS keeps (Python's `%` gives 0.0).
    zeros = pl.store(pl.tile.rems(pl.tile.full([1, 16], dtype=pl.FP32, value=-1.5), 0.75), [0, 0], zeros)
    return rems, irems, zeros


@pl.jit.incore
def bits(
    x: pl.Tensor[[4, 16], pl.FP32],
    words: pl.Out[pl.Tensor[[2, 8], pl.INT32]],
    halves: pl.Out[pl.Tensor[[2, 8], pl.INT16]],
):
    t = pl.load(x, [0, 0], [2, 16])
    words = pl.store(pl.tile.gather_mask(t, pl.tile.MaskPattern.P0101, output_dtype=pl.INT32), [0, 0], words)
    h = pl.tile.cast(t, target_type=pl.FP16)
    halves = pl.store(pl.tile.gather_mask(h, pl.tile.MaskPattern.P1010, output_dtype=pl.INT16), [0, 0], halves)
    return words, halves


@pl.jit
def entry(
    x: pl.Tensor[[4, 16], pl.FP32],
    k: pl.Tensor[[2, 16], pl.INT32],
    rems: pl.Out[pl.Tensor[[8, 16], pl.FP32]],
    irems: pl.Out[pl.Tensor[[3, 16], pl.INT32]],
    zeros: pl.Out[pl.Tensor[[1, 16], pl.FP32]],
    words: pl.Out[pl.Tensor[[2, 8], pl.INT32]],
    halves: pl.Out[pl.Tensor[[2, 8], pl.INT16]],
):
    rems, irems, zeros = remainders(x, k, rems, irems, zeros)
    words, halves = bits(x, words, halves)
    return rems, irems, zeros, words, halves
