# Assemblies in orchestration code that the runtime would not copy: the assembly is no code
# there (its result names its target), and the source is not data a kernel wrote into the
# target. `plc compile` and `plc run` refuse each with E0623 at the assembly (asserted in
# tests/cli.rs); tests/runs/orchestration_assembly.pl has the forms the runtime writes.
import pypto.language as pl

R = 4
C = 8


@pl.program
class NotCopied:
    @pl.function(type=pl.FunctionType.InCore)
    def double(
        self, x: pl.Tensor[[R, C], pl.FP32], dst: pl.Out[pl.Tensor[[R, C], pl.FP32]]
    ) -> pl.Tensor[[R, C], pl.FP32]:
        t = pl.load(x, [0, 0], [R, C])
        dst = pl.store(pl.add(t, t), [0, 0], dst)
        return dst

    # A parameter: nothing puts it into `out`.
    @pl.function(type=pl.FunctionType.Orchestration)
    def parameter(
        self, x: pl.Tensor[[R, C], pl.FP32], out: pl.Out[pl.Tensor[[R, C], pl.FP32]]
    ) -> pl.Tensor[[R, C], pl.FP32]:
        out[:] = x
        return out

    # A window of `out` written by the kernel, assembled at another offset.
    @pl.function(type=pl.FunctionType.Orchestration)
    def other_window(
        self, x: pl.Tensor[[R, C], pl.FP32], out: pl.Out[pl.Tensor[[2 * R, C], pl.FP32]]
    ) -> pl.Tensor[[2 * R, C], pl.FP32]:
        w = pl.slice(out, [R, C], [0, 0])
        w = self.double(x, w)
        out = pl.assemble(out, w, [R, 0])
        return out

    # One tensor assembled twice: PyPTO makes neither assembly a view, so neither copies.
    @pl.function(type=pl.FunctionType.Orchestration)
    def twice(
        self, x: pl.Tensor[[R, C], pl.FP32], out: pl.Out[pl.Tensor[[2 * R, C], pl.FP32]]
    ) -> pl.Tensor[[2 * R, C], pl.FP32]:
        t = pl.create_tensor([R, C], dtype=pl.FP32)
        t = self.double(x, t)
        out = pl.assemble(out, t, [0, 0])
        out = pl.assemble(out, t, [R, 0])
        return out

    # Made before the loop whose variable places it: it cannot be a view of that window.
    @pl.function(type=pl.FunctionType.Orchestration)
    def made_early(
        self, x: pl.Tensor[[R, C], pl.FP32], out: pl.Out[pl.Tensor[[2 * R, C], pl.FP32]]
    ) -> pl.Tensor[[2 * R, C], pl.FP32]:
        t = pl.create_tensor([R, C], dtype=pl.FP32)
        t = self.double(x, t)
        for i in pl.range(1):
            out = pl.assemble(out, t, [i * R, 0])
        return out
