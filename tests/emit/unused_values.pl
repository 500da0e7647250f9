# Values the program never reads (issue 15, item 8): an entry parameter (a tensor and a
# scalar), a kernel parameter, scalar locals of orchestration code (computed, read from a
# tensor, a task id never waited for). The C++ must still pass -Wall -Wextra -Werror
# (tests/compile.rs); `m` was an unused variable, and so was `k`, whose only reader is
# `k2 = k`, an alias that emits nothing (random program seed 108250); an extent
# (`pl.tensor.dim`) and a scalar helper's value (`pl.max`) never read.
import pypto.language as pl

N = 64


@pl.jit.incore
def copy(a: pl.Tensor[[N, N], pl.FP32], unused_t: pl.Tensor[[N, N], pl.FP32], s: pl.Scalar[pl.INDEX], b: pl.Out[pl.Tensor[[N, N], pl.FP32]]):
    t = pl.load(a, [0, 0], [N, N])
    u = pl.load(a, [0, 0], [N, N])
    v = -4
    pl.store(t, [0, 0], b)
    return b


@pl.jit
def entry(x: pl.Tensor[[N, N], pl.FP32], y: pl.Tensor[[N, N], pl.FP32], n: pl.Scalar[pl.INDEX], out: pl.Out[pl.Tensor[[N, N], pl.FP32]]):
    m = n * 2
    k = n * 3
    k2 = k
    q = -1
    r = pl.tensor.read(x, [1, 2])
    c = pl.create_tensor([N, N], dtype=pl.FP32)
    rows = pl.tensor.dim(x, 0)
    wider = pl.max(n, 4)
    out = copy(x, y, q, out)
    return out
