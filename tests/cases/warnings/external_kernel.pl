# An external kernel (PyPTO's `@pl.function(type=AIV, external_source=...)`): a signature
# with a `...` body whose kernel is the C++ file named, relative to this file. The
# orchestration calls it as any kernel: the call's directions come from its parameters.
# The printed IR names the file by its absolute path (shown here from the checkout's
# root), so the printed program finds it from anywhere. `plc compile` passes the file
# through as the kernel's (tests/compile.rs); `plc run` refuses a run that reaches it
# (tests/run.rs).
import pypto.language as pl


@pl.program
class ExternalKernel:
    @pl.function(type=pl.FunctionType.AIV, external_source="kernels/ext_add.cpp")
    def ext_add(
        self,
        a: pl.Tensor[[16, 16], pl.FP32],
        b: pl.Tensor[[16, 16], pl.FP32],
        out: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        """out = a + b, in hand-written C++."""
        ...

    @pl.function(type=pl.FunctionType.InCore)
    def double(
        self,
        a: pl.Tensor[[16, 16], pl.FP32],
        out: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        t = pl.load(a, [0, 0], [16, 16])
        out = pl.store(pl.add(t, t), [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        a: pl.Tensor[[16, 16], pl.FP32],
        b: pl.Tensor[[16, 16], pl.FP32],
        out: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        tmp = pl.create_tensor([16, 16], dtype=pl.FP32)
        tmp = self.ext_add(a, b, tmp)
        out = self.double(tmp, out)
        return out
