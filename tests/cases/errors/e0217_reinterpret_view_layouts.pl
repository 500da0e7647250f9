# E0217: `pl.tensor.reinterpret_view` reads a tensor's bytes as another dtype, which needs
# packed row-major storage: PyPTO refuses an MX-layout source (`pl.MX_A_ZZ`, `pl.MX_B_NN`,
# blocked scales), an NZ-layout one (fractal) and a DistributedTensor (ops.md §2.2). The
# last view, of an ND tensor, is accepted.
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Reinterpret:
    @pl.function(type=pl.FunctionType.InCore)
    def main(
        self,
        sa: pl.Tensor[[64, 4], pl.FP8E8M0, pl.MX_A_ZZ],
        sb: pl.Tensor[[4, 64], pl.UINT8, pl.MX_B_NN],
        nz: pl.Tensor[[16, 16], pl.FP16, pl.NZ],
        win: pld.DistributedTensor[[8, 8], pl.FP32],
        plain: pl.Tensor[[16, 16], pl.FP16],
        out: pl.Out[pl.Tensor[[16, 16], pl.FP16]],
    ):
        a = pl.tensor.reinterpret_view(sa, pl.UINT8)
        b = pl.tensor.reinterpret_view(sb, pl.INT8)
        c = pl.tensor.reinterpret_view(nz, pl.INT16)
        d = pl.tensor.reinterpret_view(win, pl.INT32)
        e = pl.tensor.reinterpret_view(plain, pl.INT16)
        return out
