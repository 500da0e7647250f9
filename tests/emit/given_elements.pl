# Tensors whose elements the command line gives (`--arg NAME=[...]`), as a model's
# configuration tensor is: `config` holds a row offset and a repeat count, `lens` a
# length per row band, `w` a few weights (FP16, rounded as the harness stores them).
# A tensor given its elements draws nothing from the seeded stream, so `x` gets the same
# values whether `config` is given or drawn. tests/compile.rs runs the harness with
# `config=[16, 3]`, `lens=[1, 2, 0, 1]` and `w=[0.5, -1, 0.333]` and compares it with
# `plc run`; tests/run.rs checks the usage errors.
import pypto.language as pl

N = pl.dynamic("N")


@pl.jit
def entry(
    config: pl.Tensor[[2], pl.INT64],
    lens: pl.Tensor[[N], pl.INT32],
    w: pl.Tensor[[3], pl.FP16],
    x: pl.Tensor[[64, 32], pl.FP32],
    out: pl.InOut[pl.Tensor[[16, 32], pl.FP32]],
):
    row = pl.tensor.read(config, [0])
    repeats = pl.tensor.read(config, [1])
    for i in pl.range(repeats):
        band = pl.tensor.read(lens, [i])
        with pl.at(level=pl.Level.CORE_GROUP):
            t = pl.load(x, [row, 0], [16, 32])
            acc = pl.load(out, [0, 0], [16, 32])
            pl.store(pl.add(acc, pl.mul(t, band)), [0, 0], out)
    scale = pl.tensor.read(w, [2])
    with pl.at(level=pl.Level.CORE_GROUP):
        acc = pl.load(out, [0, 0], [16, 32])
        pl.store(pl.mul(acc, scale), [0, 0], out)
    return out
