# The elementwise `pl.tensor.*` ops of ops.md §2.2, each spelled as PyPTO spells it, inside
# an InCore function (PyPTO converts them to tile ops there), each result assembled into an
# Out tensor so its values are printed. The harness build prints what `plc run` prints
# (tests/compile.rs).
import pypto.language as pl

R = 4
C = 8


@pl.jit.incore
def float_ops(
    x: pl.Tensor[[R, C], pl.FP32],
    y: pl.Tensor[[R, C], pl.FP32],
    arith: pl.Out[pl.Tensor[[R, 4 * C], pl.FP32]],
    maths: pl.Out[pl.Tensor[[R, 8 * C], pl.FP32]],
    picks: pl.Out[pl.Tensor[[R, 6 * C], pl.FP32]],
):
    arith = pl.assemble(arith, pl.tensor.add(x, y), [0, 0])
    arith = pl.assemble(arith, pl.tensor.sub(pl.tensor.subs(x, 0.5), y), [0, C])
    arith = pl.assemble(arith, pl.tensor.mul(x, pl.tensor.add(y, 1.0)), [0, 2 * C])
    arith = pl.assemble(arith, pl.tensor.div(pl.tensor.divs(x, 4.0), pl.tensor.adds(y, 2.0)), [0, 3 * C])
    pos = pl.tensor.adds(pl.tensor.abs(x), 1.0)
    maths = pl.assemble(maths, pl.tensor.neg(pl.tensor.abs(x)), [0, 0])
    maths = pl.assemble(maths, pl.tensor.exp(pl.tensor.muls(x, 0.25)), [0, C])
    maths = pl.assemble(maths, pl.tensor.log(pos), [0, 2 * C])
    maths = pl.assemble(maths, pl.tensor.sqrt(pos), [0, 3 * C])
    maths = pl.assemble(maths, pl.tensor.rsqrt(pos), [0, 4 * C])
    maths = pl.assemble(maths, pl.tensor.recip(pos), [0, 5 * C])
    maths = pl.assemble(maths, pl.tensor.cos(x), [0, 6 * C])
    maths = pl.assemble(maths, pl.tensor.sin(x), [0, 7 * C])
    picks = pl.assemble(picks, pl.tensor.maximum(x, y), [0, 0])
    picks = pl.assemble(picks, pl.tensor.minimum(x, y), [0, C])
    picks = pl.assemble(picks, pl.tensor.fmod(pl.tensor.muls(x, 3.0), pl.tensor.adds(pl.tensor.abs(y), 0.5)), [0, 2 * C])
    picks = pl.assemble(picks, pl.tensor.fmod(x, 0.75), [0, 3 * C])
    picks = pl.assemble(picks, pl.tensor.cmp(x, y, cmp_type=4), [0, 4 * C])
    picks = pl.assemble(picks, pl.tensor.cmp(x, 0.0, cmp_type=3), [0, 5 * C])
    return arith, maths, picks


@pl.jit.incore
def part_ops(
    x: pl.Tensor[[R, C], pl.FP32],
    y: pl.Tensor[[R, C], pl.FP32],
    parts: pl.Out[pl.Tensor[[R, 4 * C], pl.FP32]],
):
    a = pl.tensor.slice(x, [R, C], [0, 0], valid_shape=[R, C // 2])
    b = pl.tensor.slice(y, [R, C], [0, 0], valid_shape=[R // 2, C])
    parts = pl.assemble(parts, pl.tensor.fillpad(pl.tensor.part_add(a, b)), [0, 0])
    parts = pl.assemble(parts, pl.tensor.fillpad(pl.tensor.part_max(a, b)), [0, C])
    parts = pl.assemble(parts, pl.tensor.fillpad(pl.tensor.part_min(a, b)), [0, 2 * C])
    parts = pl.assemble(parts, pl.tensor.fillpad(pl.tensor.part_mul(a, b)), [0, 3 * C])
    return parts


@pl.jit.incore
def int_ops(
    x: pl.Tensor[[R, C], pl.FP32],
    y: pl.Tensor[[R, C], pl.FP32],
    bits: pl.Out[pl.Tensor[[R, 8 * C], pl.INT32]],
    shifts: pl.Out[pl.Tensor[[R, 5 * C], pl.INT32]],
    flipped: pl.Out[pl.Tensor[[R, C], pl.INT16]],
):
    a = pl.tensor.cast(pl.tensor.muls(x, 20.0), pl.INT32, mode="floor")
    b = pl.tensor.cast(pl.tensor.muls(y, 20.0), target_type=pl.INT32, mode="trunc")
    bits = pl.assemble(bits, pl.tensor.and_(a, b), [0, 0])
    bits = pl.assemble(bits, pl.tensor.ands(a, 12), [0, C])
    bits = pl.assemble(bits, pl.tensor.or_(a, b), [0, 2 * C])
    bits = pl.assemble(bits, pl.tensor.ors(a, 5), [0, 3 * C])
    bits = pl.assemble(bits, pl.tensor.xor(a, b), [0, 4 * C])
    bits = pl.assemble(bits, pl.tensor.xors(a, 9), [0, 5 * C])
    bits = pl.assemble(bits, pl.tensor.and_(a, 6), [0, 6 * C])
    bits = pl.assemble(bits, pl.tensor.expands(a, 42), [0, 7 * C])
    n = pl.tensor.ands(b, 3)
    shifts = pl.assemble(shifts, pl.tensor.shl(a, n), [0, 0])
    shifts = pl.assemble(shifts, pl.tensor.shls(a, 2), [0, C])
    shifts = pl.assemble(shifts, pl.tensor.shr(a, n), [0, 2 * C])
    shifts = pl.assemble(shifts, pl.tensor.shrs(a, 1), [0, 3 * C])
    shifts = pl.assemble(shifts, pl.tensor.shl(pl.tensor.xor(a, 3), 1), [0, 4 * C])
    h = pl.tensor.cast(a, pl.INT16)
    flipped = pl.assemble(flipped, pl.tensor.not_(h), [0, 0])
    return bits, shifts, flipped


@pl.jit
def entry(
    x: pl.Tensor[[R, C], pl.FP32],
    y: pl.Tensor[[R, C], pl.FP32],
    arith: pl.Out[pl.Tensor[[R, 4 * C], pl.FP32]],
    maths: pl.Out[pl.Tensor[[R, 8 * C], pl.FP32]],
    picks: pl.Out[pl.Tensor[[R, 6 * C], pl.FP32]],
    parts: pl.Out[pl.Tensor[[R, 4 * C], pl.FP32]],
    bits: pl.Out[pl.Tensor[[R, 8 * C], pl.INT32]],
    shifts: pl.Out[pl.Tensor[[R, 5 * C], pl.INT32]],
    flipped: pl.Out[pl.Tensor[[R, C], pl.INT16]],
):
    arith, maths, picks = float_ops(x, y, arith, maths, picks)
    parts = part_ops(x, y, parts)
    bits, shifts, flipped = int_ops(x, y, bits, shifts, flipped)
    return arith, maths, picks, parts, bits, shifts, flipped
