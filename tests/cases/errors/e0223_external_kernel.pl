# PyPTO declares a hand-written C++ kernel as an AIC/AIV signature with a `...` body and
# `external_source=` naming the C++ file. plc cannot check, run or compile a C++ body, so
# it refuses the declaration by name (E0223), one error per external kernel; the Group and
# the orchestration around them are read as usual.
import pypto.language as pl


@pl.program
class ExternalMixed:
    @pl.function(type=pl.FunctionType.AIC, external_source="ext_kernel.cpp")
    def k_aic(
        self,
        a: pl.Tensor[[128, 128], pl.FP16],
        out: pl.Out[pl.Tensor[[128, 128], pl.FP16]],
    ) -> pl.Tensor[[128, 128], pl.FP16]: ...

    @pl.function(type=pl.FunctionType.AIV, external_source="ext_kernel.cpp")
    def k_aiv(
        self,
        a: pl.Tensor[[128, 128], pl.FP16],
        out: pl.Out[pl.Tensor[[128, 128], pl.FP16]],
    ) -> pl.Tensor[[128, 128], pl.FP16]: ...

    @pl.function(type=pl.FunctionType.Group)
    def k(
        self,
        a: pl.Tensor[[128, 128], pl.FP16],
        out: pl.Out[pl.Tensor[[128, 128], pl.FP16]],
    ) -> pl.Tensor[[128, 128], pl.FP16]:
        r = self.k_aic(a, out)
        self.k_aiv(a, out)
        return r

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        a: pl.Tensor[[128, 128], pl.FP16],
        out: pl.Out[pl.Tensor[[128, 128], pl.FP16]],
    ) -> pl.Tensor[[128, 128], pl.FP16]:
        out = self.k(a, out)
        return out
