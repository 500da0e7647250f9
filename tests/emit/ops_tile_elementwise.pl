# The elementwise `pl.tile.*` spellings of ops.md §2.3 (issue 11), each result stored so its
# values are compared: the three-operand chains (`addc`, `subc`, `addsc`, `subsc`), the
# binaries and their scalar forms (`pl.tile.sub/mul/div` with a scalar take the `*s` op as
# PyPTO's wrapper does), the remainders (`rem`: the divisor's sign, `fmod`: the dividend's),
# the bitwise family on INT32 and `not_` on INT16, the unary maths, the activations, the
# selections through a packed compare mask, the partial ops, `expands`, `arange` and the
# scalar helper `pl.tile.min`. The harness build prints what `plc run` prints
# (tests/compile.rs).
import pypto.language as pl

R = 4
C = 16


@pl.jit.incore
def arith(
    x: pl.Tensor[[R, C], pl.FP32],
    y: pl.Tensor[[R, C], pl.FP32],
    chains: pl.Out[pl.Tensor[[4 * R, C], pl.FP32]],
    binaries: pl.Out[pl.Tensor[[8 * R, C], pl.FP32]],
    scalars: pl.Out[pl.Tensor[[8 * R, C], pl.FP32]],
    mods: pl.Out[pl.Tensor[[4 * R, C], pl.FP32]],
):
    a = pl.load(x, [0, 0], [R, C])
    b = pl.load(y, [0, 0], [R, C])
    # A divisor away from zero: |b| + 0.5.
    d = pl.tile.adds(pl.tile.abs(b), 0.5)
    chains = pl.store(pl.tile.addc(a, b, d), [0, 0], chains)
    chains = pl.store(pl.tile.subc(a, b, d), [R, 0], chains)
    chains = pl.store(pl.tile.addsc(a, 2.0, b), [2 * R, 0], chains)
    chains = pl.store(pl.tile.subsc(a, 2.0, b), [3 * R, 0], chains)
    binaries = pl.store(pl.tile.sub(a, b), [0, 0], binaries)
    binaries = pl.store(pl.tile.mul(a, b), [R, 0], binaries)
    binaries = pl.store(pl.tile.div(a, d), [2 * R, 0], binaries)
    binaries = pl.store(pl.tile.div(a, d, high_precision=True), [3 * R, 0], binaries)
    binaries = pl.store(pl.tile.maximum(a, b), [4 * R, 0], binaries)
    binaries = pl.store(pl.tile.minimum(a, b), [5 * R, 0], binaries)
    part_b = pl.load(y, [0, 0], [R, C], valid_shape=[2, 8])
    binaries = pl.store(pl.tile.part_add(a, part_b), [6 * R, 0], binaries)
    binaries = pl.store(pl.tile.part_max(a, part_b), [7 * R, 0], binaries)
    scalars = pl.store(pl.tile.sub(a, 0.25), [0, 0], scalars)
    scalars = pl.store(pl.tile.subs(a, -1.5), [R, 0], scalars)
    scalars = pl.store(pl.tile.mul(a, 3.0), [2 * R, 0], scalars)
    scalars = pl.store(pl.tile.div(a, 4.0), [3 * R, 0], scalars)
    scalars = pl.store(pl.tile.divs(a, -0.5), [4 * R, 0], scalars)
    scalars = pl.store(pl.tile.maximums(a, 0.5), [5 * R, 0], scalars)
    scalars = pl.store(pl.tile.minimums(a, -0.5), [6 * R, 0], scalars)
    scalars = pl.store(pl.tile.part_mul(a, part_b), [7 * R, 0], scalars)
    tmp = pl.tile.create_tile([R, C], dtype=pl.FP32)
    big = pl.tile.muls(a, 4.0)
    mods = pl.store(pl.tile.rem(big, d, tmp), [0, 0], mods)
    mods = pl.store(pl.tile.rems(big, 0.75, tmp), [R, 0], mods)
    mods = pl.store(pl.tile.fmod(big, d), [2 * R, 0], mods)
    mods = pl.store(pl.tile.fmods(big, -0.75), [3 * R, 0], mods)
    return chains, binaries, scalars, mods


@pl.jit.incore
def bitwise(
    i: pl.Tensor[[R, C], pl.INT32],
    j: pl.Tensor[[R, C], pl.INT32],
    h: pl.Tensor[[R, C], pl.INT16],
    bits: pl.Out[pl.Tensor[[12 * R, C], pl.INT32]],
    nots: pl.Out[pl.Tensor[[R, C], pl.INT16]],
):
    p = pl.load(i, [0, 0], [R, C])
    q = pl.load(j, [0, 0], [R, C])
    tmp = pl.tile.create_tile([R, C], dtype=pl.INT32)
    # Shift counts 0..3 from q's low bits.
    n = pl.tile.ands(q, 3)
    bits = pl.store(pl.tile.and_(p, q), [0, 0], bits)
    bits = pl.store(pl.tile.or_(p, q), [R, 0], bits)
    bits = pl.store(pl.tile.xor(p, q, tmp), [2 * R, 0], bits)
    bits = pl.store(n, [3 * R, 0], bits)
    bits = pl.store(pl.tile.ors(p, 16), [4 * R, 0], bits)
    bits = pl.store(pl.tile.xors(p, 5, tmp), [5 * R, 0], bits)
    bits = pl.store(pl.tile.shl(p, n), [6 * R, 0], bits)
    bits = pl.store(pl.tile.shr(p, n), [7 * R, 0], bits)
    bits = pl.store(pl.tile.shls(p, 4), [8 * R, 0], bits)
    bits = pl.store(pl.tile.shrs(p, 1), [9 * R, 0], bits)
    bits = pl.store(pl.tile.sub(p, q), [10 * R, 0], bits)
    bits = pl.store(pl.tile.rem(p, pl.tile.adds(n, 1), tmp), [11 * R, 0], bits)
    nots = pl.store(pl.tile.not_(pl.load(h, [0, 0], [R, C])), [0, 0], nots)
    return bits, nots


@pl.jit.incore
def maths(
    x: pl.Tensor[[R, C], pl.FP32],
    y: pl.Tensor[[R, C], pl.FP32],
    unary: pl.Out[pl.Tensor[[5 * R, C], pl.FP32]],
    acts: pl.Out[pl.Tensor[[3 * R, C], pl.FP32]],
    picks: pl.Out[pl.Tensor[[3 * R, C], pl.FP32]],
    ints: pl.Out[pl.Tensor[[3, C], pl.INT32]],
):
    a = pl.load(x, [0, 0], [R, C])
    b = pl.load(y, [0, 0], [R, C])
    pos = pl.tile.adds(pl.tile.abs(a), 0.25)
    unary = pl.store(pl.tile.exp(a), [0, 0], unary)
    unary = pl.store(pl.tile.log(pos), [R, 0], unary)
    unary = pl.store(pl.tile.sqrt(pos), [2 * R, 0], unary)
    unary = pl.store(pl.tile.recip(pos), [3 * R, 0], unary)
    unary = pl.store(pl.tile.log(pos, high_precision=True), [4 * R, 0], unary)
    acts = pl.store(pl.tile.relu(a), [0, 0], acts)
    acts = pl.store(pl.tile.lrelu(a, 0.125), [R, 0], acts)
    tmp = pl.tile.create_tile([R, C], dtype=pl.FP32)
    acts = pl.store(pl.tile.prelu(a, b, tmp), [2 * R, 0], acts)
    # a < b, packed 8 to a byte: pick a there, else b (sel) or -9 (sels).
    mask = pl.tile.cmp(a, b, cmp_type=2)
    picks = pl.store(pl.tile.sel(mask, a, b, tmp), [0, 0], picks)
    picks = pl.store(pl.tile.sels(mask, a, tmp, -9.0), [R, 0], picks)
    picks = pl.store(pl.tile.expands(a, 1.5), [2 * R, 0], picks)
    up = pl.tile.arange(3, [1, C], dtype=pl.INT32)
    down = pl.tile.arange(100, [1, C], dtype=pl.INT32, descending=True)
    ints = pl.store(up, [0, 0], ints)
    ints = pl.store(down, [1, 0], ints)
    m = pl.tile.min(7, pl.tile.get_block_num() + 4)
    ints = pl.store(pl.tile.expands(up, m), [2, 0], ints)
    return unary, acts, picks, ints


@pl.jit
def entry(
    x: pl.Tensor[[R, C], pl.FP32],
    y: pl.Tensor[[R, C], pl.FP32],
    i: pl.Tensor[[R, C], pl.INT32],
    j: pl.Tensor[[R, C], pl.INT32],
    h: pl.Tensor[[R, C], pl.INT16],
    chains: pl.Out[pl.Tensor[[4 * R, C], pl.FP32]],
    binaries: pl.Out[pl.Tensor[[8 * R, C], pl.FP32]],
    scalars: pl.Out[pl.Tensor[[8 * R, C], pl.FP32]],
    mods: pl.Out[pl.Tensor[[4 * R, C], pl.FP32]],
    bits: pl.Out[pl.Tensor[[12 * R, C], pl.INT32]],
    nots: pl.Out[pl.Tensor[[R, C], pl.INT16]],
    unary: pl.Out[pl.Tensor[[5 * R, C], pl.FP32]],
    acts: pl.Out[pl.Tensor[[3 * R, C], pl.FP32]],
    picks: pl.Out[pl.Tensor[[3 * R, C], pl.FP32]],
    ints: pl.Out[pl.Tensor[[3, C], pl.INT32]],
):
    chains, binaries, scalars, mods = arith(x, y, chains, binaries, scalars, mods)
    bits, nots = bitwise(i, j, h, bits, nots)
    unary, acts, picks, ints = maths(x, y, unary, acts, picks, ints)
    return chains, binaries, scalars, mods, bits, nots, unary, acts, picks, ints
