# `pl.tensor.as_layout(t, layout=L)` (newer than ops.md; PyPTO's passes insert it where an
# orchestrator hands a kernel a DN parameter): the same storage read under layout L. plc's
# tensors are row-major, so `layout=DN` swaps the last two axes (PyPTO's ND -> DN flip: an
# [N, K] tensor read as [K, N]) and `layout=ND` keeps the tensor. With a = 1..8 as [2, 4],
# `dn` is [4, 2] with dn[k, n] = a[n, k], so its first row is [1, 5] (sum 6); `nd` is `a`,
# whose first row starts [1, 2] (sum 3).
# run: --entry main --arg a=[1,2,3,4,5,6,7,8]
# run: --entry main --arg a=2x4
import pypto.language as pl


@pl.program
class Layouts:
    @pl.function(type=pl.FunctionType.InCore)
    def first_of_dn(
        self, x: pl.Tensor[[4, 2], pl.FP32], out: pl.Out[pl.Tensor[[1, 2], pl.FP32]]
    ) -> pl.Tensor[[1, 2], pl.FP32]:
        t = pl.load(x, [0, 0], [1, 2])
        out = pl.store(t, [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.InCore)
    def first_of_nd(
        self, x: pl.Tensor[[2, 4], pl.FP32], out: pl.Out[pl.Tensor[[1, 2], pl.FP32]]
    ) -> pl.Tensor[[1, 2], pl.FP32]:
        t = pl.load(x, [0, 0], [1, 2])
        out = pl.store(t, [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        a: pl.Tensor[[2, 4], pl.FP32],
        from_dn: pl.Out[pl.Tensor[[1, 2], pl.FP32]],
        from_nd: pl.Out[pl.Tensor[[1, 2], pl.FP32]],
    ):
        dn: pl.Tensor[[4, 2], pl.FP32] = pl.tensor.as_layout(a, layout=pl.TensorLayout.DN)
        nd = pl.tensor.as_layout(a, pl.TensorLayout.ND)
        from_dn = self.first_of_dn(dn, from_dn)
        from_nd = self.first_of_nd(nd, from_nd)
        return from_dn, from_nd
