# `pl.tensor.as_layout(t, layout=L)` and `pl.tensor.view(t, layout=L)` (newer than ops.md;
# PyPTO's passes insert `as_layout` where an orchestrator hands a kernel a DN parameter),
# as PyPTO's orchestration lowers them and the device reads them:
# - a flip between ND and DN swaps the last two axes over the same storage (an ND [N, K]
#   tensor is a DN [K, N] one and back); the layout a tensor already has is the tensor
#   itself. With a = 1..8 as [2, 4], `dn` is [4, 2] with dn[k, n] = a[n, k];
# - a kernel reads a DN parameter from the view's start, column-major in its last two axes:
#   handed `dn` it reads dn itself, first row [1, 5] (sum 6); handed the ND [4, 2] tensor
#   b = 1..8 it reads b's storage column-major, first row [b[0, 0], b[2, 0]] = [1, 5] (sum
#   6), not b's first row [1, 2];
# - `as_layout(dn, ND)` and `view(dn, layout=ND)` flip back to a (first row [1, 2], sum 3),
#   `as_layout(dn, DN)` is dn (sum 6), `as_layout(a, ND)` is a (sum 3).
# run: --entry main --arg a=[1,2,3,4,5,6,7,8] --arg b=[1,2,3,4,5,6,7,8]
# run: --entry main --arg a=2x4 --arg b=4x2
# run: --entry dn_for_nd --arg a=[1,2,3,4,5,6,7,8]
import pypto.language as pl


@pl.program
class Layouts:
    @pl.function(type=pl.FunctionType.InCore)
    def first_of_dn(
        self,
        x: pl.Tensor[[4, 2], pl.FP32, pl.TensorView(stride=[1, 4], layout=pl.TensorLayout.DN)],
        out: pl.Out[pl.Tensor[[1, 2], pl.FP32]],
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

    @pl.function(type=pl.FunctionType.InCore)
    def first_of_plain(
        self, x: pl.Tensor[[4, 2], pl.FP32], out: pl.Out[pl.Tensor[[1, 2], pl.FP32]]
    ) -> pl.Tensor[[1, 2], pl.FP32]:
        t = pl.load(x, [0, 0], [1, 2])
        out = pl.store(t, [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        a: pl.Tensor[[2, 4], pl.FP32],
        b: pl.Tensor[[4, 2], pl.FP32],
        from_dn: pl.Out[pl.Tensor[[1, 2], pl.FP32]],
        from_nd_for_dn: pl.Out[pl.Tensor[[1, 2], pl.FP32]],
        flipped_back: pl.Out[pl.Tensor[[1, 2], pl.FP32]],
        viewed_back: pl.Out[pl.Tensor[[1, 2], pl.FP32]],
        dn_again: pl.Out[pl.Tensor[[1, 2], pl.FP32]],
        nd: pl.Out[pl.Tensor[[1, 2], pl.FP32]],
    ):
        dn: pl.Tensor[[4, 2], pl.FP32] = pl.tensor.as_layout(a, layout=pl.TensorLayout.DN)
        from_dn = self.first_of_dn(dn, from_dn)
        from_nd_for_dn = self.first_of_dn(b, from_nd_for_dn)
        back: pl.Tensor[[2, 4], pl.FP32] = pl.tensor.as_layout(dn, pl.TensorLayout.ND)
        flipped_back = self.first_of_nd(back, flipped_back)
        view_dn = pl.tensor.view(a, layout=pl.TensorLayout.DN)
        view_back: pl.Tensor[[2, 4], pl.FP32] = pl.tensor.view(view_dn, layout=pl.TensorLayout.ND)
        viewed_back = self.first_of_nd(view_back, viewed_back)
        same: pl.Tensor[[4, 2], pl.FP32] = pl.tensor.as_layout(dn, pl.TensorLayout.DN)
        dn_again = self.first_of_dn(same, dn_again)
        kept = pl.tensor.as_layout(a, pl.TensorLayout.ND)
        nd = self.first_of_nd(kept, nd)
        return from_dn, from_nd_for_dn, flipped_back, viewed_back, dn_again, nd

    # A DN view handed to an ND parameter: the kernel would read the storage row-major
    # (a's first row [1, 2]), not the view's values; plc refuses it (E0803 here, E0601 at
    # `plc compile`).
    @pl.function(type=pl.FunctionType.Orchestration)
    def dn_for_nd(self, a: pl.Tensor[[2, 4], pl.FP32], out: pl.Out[pl.Tensor[[1, 2], pl.FP32]]):
        dn: pl.Tensor[[4, 2], pl.FP32] = pl.tensor.as_layout(a, layout=pl.TensorLayout.DN)
        out = self.first_of_plain(dn, out)
        return out
