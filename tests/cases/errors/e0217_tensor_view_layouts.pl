# E0217: `pl.tensor.view` needs a shape or a layout (PyPTO: "shape or layout required"),
# takes only the ND and DN layouts (no NZ, no MX), and a DN view without a shape needs two
# axes to swap. A view with only `layout=DN` or only `layout=ND` is fine.
import pypto.language as pl


@pl.program
class Views:
    @pl.function(type=pl.FunctionType.Orchestration)
    def views(self, a: pl.Tensor[[16, 32], pl.FP32], v: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[16, 32], pl.FP32]:
        dn: pl.Tensor[[32, 16], pl.FP32] = pl.tensor.view(a, layout=pl.TensorLayout.DN)
        nd: pl.Tensor[[16, 32], pl.FP32] = pl.tensor.view(a, layout=pl.ND)
        neither = pl.tensor.view(a)
        nz = pl.tensor.view(a, layout=pl.TensorLayout.NZ)
        mx = pl.tensor.view(a, [32, 16], layout=pl.MX_A_ZZ)
        flat = pl.tensor.view(v, layout=pl.DN)
        return a
