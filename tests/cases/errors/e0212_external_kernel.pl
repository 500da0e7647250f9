# PyPTO's external kernels: an AIC/AIV signature with a `...` body whose C++ is the file
# `external_source=` names. Each misuse is an error at the argument (or the statement):
# another function type, a value that is not a string literal, a file that does not
# exist (relative paths are resolved against this file's directory), a body with
# statements, and the key set by pl.func_attr.
import pypto.language as pl


@pl.program
class ExternalMisuse:
    @pl.function(type=pl.FunctionType.InCore, external_source="../warnings/kernels/ext_add.cpp")
    def k_incore(self, a: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]): ...

    @pl.function(external_source="../warnings/kernels/ext_add.cpp", type=pl.FunctionType.Group)
    def k_group(self, a: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]): ...

    @pl.function(type=pl.FunctionType.AIV, external_source=42)
    def k_named(self, a: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]): ...

    @pl.function(type=pl.FunctionType.AIV, external_source="kernels/missing.cpp")
    def k_missing(self, a: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]): ...

    @pl.function(type=pl.FunctionType.AIC, external_source="../warnings/kernels/ext_add.cpp")
    def k_body(
        self,
        a: pl.Tensor[[16, 16], pl.FP32],
        out: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        """A docstring is allowed; the statement after it is not."""
        return out

    @pl.function(type=pl.FunctionType.AIV)
    def k_attr(self, a: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]):
        pl.func_attr({"external_source": "../warnings/kernels/ext_add.cpp"})
        t = pl.load(a, [0, 0], [16, 16])
        pl.store(t, [0, 0], out)

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        a: pl.Tensor[[16, 16], pl.FP32],
        out: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        self.k_attr(a, out)
        return out
