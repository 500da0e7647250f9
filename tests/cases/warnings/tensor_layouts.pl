# Tensor layouts in the tensor type (PyPTO keeps them in the type's TensorView): an
# annotation's layout (`pl.NZ`, `pl.MX_A_ZZ`, `pl.TensorView(layout=...)`), the layout of
# `pl.create_tensor(layout=)`, `pl.tensor.view(layout=)` and `pl.tensor.as_layout` stay
# with the value and print back as PyPTO prints them (`pl.TensorView(stride=[],
# layout=pl.TensorLayout.X)`; ND, the default, prints nothing). Accepted forms: MX scales
# loaded 2-D into Mat, a slice and a load of an NZ tensor, calls whose argument and
# parameter layouts agree (ND and DN pass for each other).
import pypto.language as pl


@pl.program
class TensorLayouts:
    @pl.function(type=pl.FunctionType.InCore)
    def scales(
        self,
        sa: pl.Tensor[[64, 4], pl.FP8E8M0, pl.MX_A_ZZ],
        sb: pl.Tensor[[4, 64], pl.UINT8, pl.TensorView(stride=[], layout=pl.TensorLayout.MX_B_NN)],
        w: pl.Tensor[[2, 64, 64], pl.BF16, pl.NZ],
        out: pl.Out[pl.Tensor[[64, 64], pl.BF16]],
    ) -> pl.Tensor[[64, 64], pl.BF16]:
        a_l1 = pl.load(sa, [0, 0], [64, 4], target_memory=pl.Mem.Mat)
        b_l1 = pl.load(sb, [0, 0], [4, 64], target_memory=pl.Mem.Mat)
        layer = pl.slice(w, [1, 64, 64], [1, 0, 0])
        w_l1 = pl.load(layer, [0, 0, 0], [1, 64, 64], target_memory=pl.Mem.Mat)
        w_v = pl.load(w, [0, 0, 0], [1, 64, 64])
        out = pl.store(pl.reshape(w_v, [64, 64]), [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.InCore)
    def rows(
        self,
        x: pl.Tensor[[16, 32], pl.FP32],
        out: pl.Out[pl.Tensor[[16, 32], pl.FP32]],
    ) -> pl.Tensor[[16, 32], pl.FP32]:
        t = pl.load(x, [0, 0], [16, 32])
        out = pl.store(t, [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        sa: pl.Tensor[[64, 4], pl.FP8E8M0, pl.MX_A_ZZ],
        sb: pl.Tensor[[4, 64], pl.UINT8, pl.MX_B_NN],
        w: pl.Tensor[[2, 64, 64], pl.BF16, pl.TensorView(stride=[], layout=pl.TensorLayout.NZ)],
        xt: pl.Tensor[[32, 16], pl.FP32],
        out: pl.Out[pl.Tensor[[64, 64], pl.BF16]],
        res: pl.Out[pl.Tensor[[16, 32], pl.FP32]],
    ) -> tuple[pl.Tensor[[64, 64], pl.BF16], pl.Tensor[[16, 32], pl.FP32]]:
        out = self.scales(sa, sb, w, out)
        x = pl.tensor.view(xt, layout=pl.TensorLayout.DN)
        res = self.rows(x, res)
        return out, res
