# E0217: a tensor layout is a claim about the bytes in global memory, so a call's argument
# and the parameter it binds must make the same one (PyPTO's TypeChecked verifier, *layout
# mismatch*): an ND tensor for an NZ or MX parameter, or an NZ tensor for an ND one, is
# refused. ND and DN pass for each other (a DN view is derived by a transposing view; the
# shorthand cannot declare it), and matching layouts pass.
import pypto.language as pl


@pl.program
class CallLayouts:
    @pl.function(type=pl.FunctionType.Inline)
    def nz_helper(
        self,
        b: pl.Tensor[[512, 256], pl.BF16, pl.TensorView(stride=[], layout=pl.TensorLayout.NZ)],
    ) -> pl.Tensor[[512, 256], pl.BF16, pl.TensorView(stride=[], layout=pl.TensorLayout.NZ)]:
        return b

    @pl.function(type=pl.FunctionType.Inline)
    def nd_helper(self, b: pl.Tensor[[512, 256], pl.BF16]) -> pl.Tensor[[512, 256], pl.BF16]:
        return b

    @pl.function(type=pl.FunctionType.Inline)
    def mx_helper(self, s: pl.Tensor[[16, 32], pl.FP8E8M0, pl.MX_B_NN]) -> pl.Tensor[[16, 32], pl.FP8E8M0, pl.MX_B_NN]:
        return s

    @pl.function
    def main(
        self,
        b: pl.Tensor[[512, 256], pl.BF16],
        w: pl.Tensor[[512, 256], pl.BF16, pl.NZ],
        s: pl.Tensor[[16, 32], pl.FP8E8M0],
        bt: pl.Tensor[[256, 512], pl.BF16],
    ) -> pl.Tensor[[512, 256], pl.BF16]:
        ok = self.nz_helper(w)
        bad = self.nz_helper(b)
        back = self.nd_helper(w)
        scales = self.mx_helper(s)
        flipped = pl.tensor.view(bt, layout=pl.TensorLayout.DN)
        out = self.nd_helper(flipped)
        return out
