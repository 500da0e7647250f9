# E0217: `attrs={"dump_vars": [...]}` on a call to a program function is a list literal of
# tensor variables, each an argument of that call (ops.md §4.2
# `_extract_dump_vars_from_attrs`). Each line marked "fine" is accepted.
import pypto.language as pl


@pl.program
class DumpVars:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[16, 16], pl.FP32],
        out: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        t = pl.load(x, [0, 0], [16, 16])
        out = pl.store(t, [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        x: pl.Tensor[[16, 16], pl.FP32],
        out: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        y = pl.create_tensor([16, 16], dtype=pl.FP32)
        n: pl.Scalar[pl.INDEX] = 3
        a = self.kernel(x, out, attrs={"dump_vars": [x, out]})  # fine
        b = self.kernel(x, out, attrs={"dump_vars": [y]})
        c = self.kernel(x, out, attrs={"dump_vars": [n]})
        d = self.kernel(x, out, attrs={"dump_vars": x})
        return a
