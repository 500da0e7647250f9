# Core-group regions nested in core-group regions, as PyPTO's OutlineIncoreScopes outlines
# them: the outer region becomes an InCore function, and the inner region is outlined from
# that function in turn, named after it (`<outer function>_incore_<n>`, the count starting
# again), placed just before it and called by it.
# - Directly nested: `copy_twice_incore_0_incore_0`, called by `copy_twice_incore_0`.
# - Nested in a loop of a named outer region: `rows` calls `rows_incore_0` once a row.
# - In the body of a `for ... in pl.spmd(n)` loop (itself an implicit core-group region).
# - In a host `pl.split_aiv` loop (likewise a core-group region of its own).
# - With `as tid` and `deps=`: inside the outer kernel the inner regions are calls that run
#   in program order, so no task is launched there and the dependencies are kept by order
#   (`ordered`; its first region is a task launch as usual).
# The inner region's kernel reads tensors: a value it takes from the outer region must be
# a tensor (a parameter, or what the outer region stored into one), not a tile computed
# there (E0605 when compiled).
import pypto.language as pl

N = 64
ROWS = 4


@pl.jit
def copy_twice(x: pl.Tensor[[N], pl.FP32], out: pl.Out[pl.Tensor[[N], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        t = pl.load(x, [0], [N])
        pl.store(t, [0], out)
        with pl.at(level=pl.Level.CORE_GROUP):
            u = pl.load(out, [0], [N])
            pl.store(pl.add(u, u), [0], out)
    return out


@pl.jit
def scaled_rows(x: pl.Tensor[[ROWS, N], pl.FP32], out: pl.Out[pl.Tensor[[ROWS, N], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="rows"):
        for r in pl.range(ROWS):
            with pl.at(level=pl.Level.CORE_GROUP):
                t = pl.load(x, [r, 0], [1, N])
                pl.store(pl.mul(t, 2.0), [r, 0], out)
    return out


@pl.jit
def spmd_body(x: pl.Tensor[[N], pl.FP32], out: pl.Out[pl.Tensor[[N], pl.FP32]]):
    for i in pl.spmd(4):
        with pl.at(level=pl.Level.CORE_GROUP):
            t = pl.load(x, [0], [N])
            pl.store(pl.exp(t), [0], out)
    return out


@pl.jit
def lanes(x: pl.Tensor[[N], pl.FP32], out: pl.Out[pl.Tensor[[N], pl.FP32]]):
    for a in pl.split_aiv(2, mode=pl.SplitMode.NONE):
        with pl.at(level=pl.Level.CORE_GROUP):
            t = pl.load(x, [0], [N])
            pl.store(pl.neg(t), [0], out)
    return out


@pl.jit
def ordered(x: pl.Tensor[[N], pl.FP32], out: pl.Out[pl.Tensor[[N], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP) as first:
        t = pl.load(x, [0], [N])
        pl.store(t, [0], out)
    with pl.at(level=pl.Level.CORE_GROUP):
        with pl.at(level=pl.Level.CORE_GROUP, deps=[first]) as scaled:
            u = pl.load(out, [0], [N])
            pl.store(pl.mul(u, 3.0), [0], out)
        with pl.at(level=pl.Level.CORE_GROUP, deps=[scaled]):
            v = pl.load(out, [0], [N])
            pl.store(pl.add(v, 1.0), [0], out)
    return out
