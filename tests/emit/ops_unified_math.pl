# The unified and promoted `pl.<name>` ops of ops.md §2.1 on tiles (issue 11): unary
# math, the tile-and-scalar and three-operand elementwise ops, the broadcasts, products,
# arg-minimum, scalar fills and pads, a valid shape set by hand, an element written and read
# back (`pl.write`, `pl.read` of a tile), the
# extents and indices (`pl.dim`, `pl.get_block_idx`, `pl.get_subblock_idx`,
# `pl.array.get_element`), the tensor forms `pl.arange` and `pl.random`, and the GEMV and
# biased matmul products on the cube. The harness build prints what `plc run` prints
# (tests/compile.rs); tests/run.rs checks the values against PyPTO's definitions.
import pypto.language as pl

R = 8
C = 16


@pl.jit.incore
def unary(x: pl.Tensor[[R, C], pl.FP32], out: pl.Out[pl.Tensor[[6 * R, C], pl.FP32]]):
    t = pl.load(x, [0, 0], [R, C])
    pos = pl.add(pl.abs(t), 0.5)
    out = pl.store(pl.abs(t), [0, 0], out)
    out = pl.store(pl.cos(t), [R, 0], out)
    out = pl.store(pl.log(pos), [2 * R, 0], out)
    out = pl.store(pl.sqrt(pos), [3 * R, 0], out)
    out = pl.store(pl.recip(pos), [4 * R, 0], out)
    out = pl.store(pl.lrelu(t, 0.125), [5 * R, 0], out)
    return out


@pl.jit.incore
def binary(
    x: pl.Tensor[[R, C], pl.FP32],
    y: pl.Tensor[[R, C], pl.FP32],
    out: pl.Out[pl.Tensor[[10 * R, C], pl.FP32]],
):
    t = pl.load(x, [0, 0], [R, C])
    u = pl.load(y, [0, 0], [R, C])
    tmp = pl.create_tile([R, C], dtype=pl.FP32)
    out = pl.store(pl.prelu(t, pl.mul(u, 0.25), tmp), [0, 0], out)
    out = pl.store(pl.rem(pl.mul(t, 7.0), pl.add(pl.abs(u), 0.5), tmp), [R, 0], out)
    out = pl.store(pl.rems(pl.mul(t, 7.0), 0.75, tmp), [2 * R, 0], out)
    out = pl.store(pl.addc(t, u, pl.mul(t, 2.0)), [3 * R, 0], out)
    out = pl.store(pl.addsc(t, 2.0, u), [4 * R, 0], out)
    out = pl.store(pl.subc(t, u, pl.mul(t, 2.0)), [5 * R, 0], out)
    out = pl.store(pl.subsc(t, 2.0, u), [6 * R, 0], out)
    out = pl.store(pl.maximums(t, 0.25), [7 * R, 0], out)
    out = pl.store(pl.minimum(t, u), [8 * R, 0], out)
    out = pl.store(pl.minimums(t, -0.25), [9 * R, 0], out)
    return out


@pl.jit.incore
def shaping(
    x: pl.Tensor[[R, C], pl.FP32],
    y: pl.Tensor[[R, C], pl.FP32],
    rv: pl.Tensor[[R, 1], pl.FP32],
    cv: pl.Tensor[[1, C], pl.FP32],
    out: pl.Out[pl.Tensor[[7 * R, C], pl.FP32]],
    small: pl.Out[pl.Tensor[[R + 1, 2], pl.FP32]],
    idx: pl.Out[pl.Tensor[[R, 1], pl.INT32]],
):
    t = pl.load(x, [0, 0], [R, C])
    r = pl.load(rv, [0, 0], [R, 1])
    c = pl.load(cv, [0, 0], [1, C])
    tmp = pl.create_tile([R, C], dtype=pl.FP32)
    part = pl.load(y, [0, 0], [R, C], valid_shape=[5, 6])
    out = pl.store(pl.fillpad(part, pad_value=pl.PadValue.max), [R, 0], out)
    out = pl.store(pl.col_expand(t, c), [2 * R, 0], out)
    out = pl.store(pl.col_expand_expdif(t, c), [3 * R, 0], out)
    out = pl.store(pl.part_min(t, part), [4 * R, 0], out)
    out = pl.store(pl.row_expand_min(t, r), [5 * R, 0], out)
    # Written in place: `t` holds 42 at [2, 3] from here on, as `w` does.
    w = pl.write(t, [2, 3], 42.0)
    out = pl.store(w, [6 * R, 0], out)
    out = pl.store(pl.expands(t, pl.read(w, [2, 3]) + 0.5), [0, 0], out)
    narrow = pl.load(x, [0, 0], [R, 2])
    small = pl.store(pl.fillpad(pl.set_validshape(narrow, 3, 1)), [0, 0], small)
    small = pl.store(pl.col_prod(pl.tile.reshape(pl.add(t, 1.0), [R * C // 2, 2])), [R, 0], small)
    idx = pl.store(pl.row_argmin(t, tmp), [0, 0], idx)
    return out, small, idx


@pl.jit.incore
def indices(
    x: pl.Tensor[[R, C], pl.FP32],
    cv: pl.Tensor[[1, C], pl.FP32],
    ids: pl.Out[pl.Tensor[[1, 2 * C], pl.INT32]],
    draws: pl.Out[pl.Tensor[[4, C], pl.UINT32]],
):
    n = pl.dim(x, 0) * 100 + pl.dim(cv, -1)
    k = pl.get_block_idx() * 10 + pl.get_subblock_idx()
    counts = pl.array.create(2, pl.INT32)
    counts = pl.array.update_element(counts, 1, n + k)
    base = pl.array.get_element(counts, 1)
    ids = pl.assemble(ids, pl.arange(base, [1, 2 * C]), [0, 0])
    draws = pl.assemble(draws, pl.random(1, 2, 3, 4, 5, 6, [2, C]), [0, 0])
    draws = pl.store(pl.tile.random(1, 2, 3, 4, 5, 6, [2, C]), [2, 0], draws)
    return ids, draws


@pl.jit.incore
def products(
    a: pl.Tensor[[1, 32], pl.FP32],
    b: pl.Tensor[[32, 16], pl.FP32],
    bias: pl.Tensor[[1, 16], pl.FP32],
    m: pl.Tensor[[16, 32], pl.FP32],
    vec: pl.Out[pl.Tensor[[3, 16], pl.FP32]],
    full: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
):
    lhs = pl.move(pl.load(a, [0, 0], [1, 32], target_memory=pl.Mem.Mat), target_memory=pl.Mem.Left)
    rhs = pl.move(pl.load(b, [0, 0], [32, 16], target_memory=pl.Mem.Mat), target_memory=pl.Mem.Right)
    bt = pl.load(bias, [0, 0], [1, 16], target_memory=pl.Mem.Bias)
    g = pl.gemv(lhs, rhs)
    vec = pl.store(g, [0, 0], vec)
    g = pl.gemv_acc(g, lhs, rhs)
    vec = pl.store(g, [1, 0], vec)
    vec = pl.store(pl.gemv_bias(lhs, rhs, bt), [2, 0], vec)
    ml = pl.move(pl.load(m, [0, 0], [16, 32], target_memory=pl.Mem.Mat), target_memory=pl.Mem.Left)
    full = pl.store(pl.matmul_bias(ml, rhs, bt), [0, 0], full)
    return vec, full


@pl.jit
def entry(
    x: pl.Tensor[[R, C], pl.FP32],
    y: pl.Tensor[[R, C], pl.FP32],
    rv: pl.Tensor[[R, 1], pl.FP32],
    cv: pl.Tensor[[1, C], pl.FP32],
    a: pl.Tensor[[1, 32], pl.FP32],
    b: pl.Tensor[[32, 16], pl.FP32],
    bias: pl.Tensor[[1, 16], pl.FP32],
    m: pl.Tensor[[16, 32], pl.FP32],
    un: pl.Out[pl.Tensor[[6 * R, C], pl.FP32]],
    bin: pl.Out[pl.Tensor[[10 * R, C], pl.FP32]],
    sh: pl.Out[pl.Tensor[[7 * R, C], pl.FP32]],
    small: pl.Out[pl.Tensor[[R + 1, 2], pl.FP32]],
    idx: pl.Out[pl.Tensor[[R, 1], pl.INT32]],
    ids: pl.Out[pl.Tensor[[1, 2 * C], pl.INT32]],
    draws: pl.Out[pl.Tensor[[4, C], pl.UINT32]],
    vec: pl.Out[pl.Tensor[[3, 16], pl.FP32]],
    full: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
):
    un = unary(x, un)
    bin = binary(x, y, bin)
    sh, small, idx = shaping(x, y, rv, cv, sh, small, idx)
    ids, draws = indices(x, cv, ids, draws)
    vec, full = products(a, b, bias, m, vec, full)
    return un, bin, sh, small, idx, ids, draws, vec, full
