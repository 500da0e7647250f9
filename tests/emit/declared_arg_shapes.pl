# `--arg` shapes against the declared type in `plc compile --harness` (issue 15, item 16):
# another rank, another constant extent or another dtype is a usage error naming the
# parameter (E0811, exit status 2), as `plc run` says; the harness took them and aborted
# or printed other sums. tests/cli.rs runs it.
import pypto.language as pl

N = pl.dynamic("N")


@pl.jit
def entry(x: pl.Tensor[[N, 64], pl.FP32], out: pl.Out[pl.Tensor[[N, 64], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        t = pl.load(x, [0, 0], [16, 64])
        pl.store(t, [0, 0], out)
    return out
