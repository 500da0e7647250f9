# A tensor matmul with an operand of more than two axes is a batched product: its shape is
# the broadcast batch extents, then [M, N] (`[16, 32] x [1, 16, 32]` with `b_trans=True`
# is `[1, 16, 16]`). `w[b : b + 1, ...]` has the extent 1 (`(b + 1) - b`), and the
# `for ... in pl.spmd(n)` form takes `allow_early_resolve=` as the `with` form does.
# run: --entry entry
import pypto.language as pl


@pl.jit
def entry(
    x: pl.Tensor[[16, 32], pl.FP32],
    w: pl.Tensor[[2, 16, 32], pl.FP32],
    y: pl.Out[pl.Tensor[[32, 16], pl.FP32]],
):
    for b in pl.spmd(2, name_hint="batched", allow_early_resolve=True):
        wk = w[b : b + 1, 0:16, 0:32]
        acc = pl.create_tensor([1, 16, 16], dtype=pl.FP32)
        acc = pl.matmul(x, wk, b_trans=True)
        y[b * 16 : b * 16 + 16, :] = pl.reshape(acc, [16, 16])
    return y
