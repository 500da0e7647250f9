# A value merged from a tile on one path and a tensor view on another, in a device function:
# a loop carries an accumulator made by `pl.create_tensor` (a view) that the first step
# replaces with a matmul's tile, and an `if` yields a slice of an input on one branch and a
# computed tile on the other (the forms of PyPTO's qwen3_jit projections and of its
# 03_flash_attention). The kernel holds such a value as a tile: the view is read into a tile
# where it enters the loop or the branch.
import pypto.language as pl

M = 32
K = 128
N = 64
KC = 32


@pl.jit
def tiled_projection(
    x: pl.Tensor[[M, K], pl.FP32],
    w: pl.Tensor[[K, N], pl.FP32],
    out: pl.Out[pl.Tensor[[M, N], pl.FP32]],
    last: pl.Out[pl.Tensor[[M, N], pl.FP32]],
):
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="project"):
        acc = pl.create_tensor([M, N], dtype=pl.FP32)
        for kb in pl.range(K // KC):
            k0 = kb * KC
            a = x[:, k0 : k0 + KC]
            b = w[k0 : k0 + KC, :]
            if k0 == 0:
                acc = pl.matmul(a, b, out_dtype=pl.FP32)
            else:
                acc = pl.matmul_acc(acc, a, b)
        out = pl.assemble(out, acc, [0, 0])
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="pick"):
        init = pl.create_tensor([M, N], dtype=pl.FP32)
        for i, (cur,) in pl.range(3, init_values=(init,)):
            if i == 0:
                nxt = pl.yield_(x[:, 0:N])
            else:
                nxt = pl.yield_(pl.add(cur, w[0:M, :]))
            step = pl.yield_(nxt)
        last = pl.assemble(last, step, [0, 0])
    return out, last
