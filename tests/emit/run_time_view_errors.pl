# Views whose offsets are computed at run time (issue 15, item 12). A negative offset is
# an error in `plc run`; the C++ cast it to uint32_t, which made the view empty and the
# run print zeros. Now the orchestration converts a computed offset or extent through
# `plc_py_extent`, which fails the run as `plc run` does (tests/compile.rs runs
# `entry` with k=-3: both fail; with k=3: both print the same lines). Float `//` and
# `%` are Python's (`-7.5 // 2.0` is -4.0, `-0.0 % 2.0` is 0.0) in both.
import pypto.language as pl


@pl.jit
def entry(
    k: pl.Scalar[pl.INDEX],
    x: pl.Tensor[[64, 64], pl.FP32],
    out: pl.InOut[pl.Tensor[[16, 64], pl.FP32]],
):
    f = (k * 1.5 - 15.0) // 2.0 + (k * 1.5 - 15.0) % 2.0
    rows = pl.cast(f, pl.INDEX) + 12
    v = pl.slice(x, [16, 64], [k, 0])
    for i in pl.range(rows):
        with pl.at(level=pl.Level.CORE_GROUP):
            t = pl.load(v, [0, 0], [16, 64])
            acc = pl.load(out, [0, 0], [16, 64])
            pl.store(pl.add(acc, t), [0, 0], out)
    return out
