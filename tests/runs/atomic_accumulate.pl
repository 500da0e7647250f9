# An atomic store adds into its destination (`atomic=pl.AtomicType.Add`), so what the
# destination holds is an operand: PyPTO derives it `InOut` whatever its declaration, and
# the runtime stages the caller's data into it. An `Out` tensor of the entry that the
# program adds into, directly or through the kernels it calls, is therefore made like an
# `InOut` one: drawn from the input stream (`total`: its draws plus `x` twice), or given
# its elements with `--arg`; it is no undefined tensor (no E0804). `plain`, written by a
# plain store, stays an `Out` tensor; the harness prints the same (tests/compile.rs).
# run: --entry main
# run: --entry main --arg total=[1,2,3,4,5,6,7,8,1,2,3,4,5,6,7,8]
# run: --entry region
import pypto.language as pl

R = 2
C = 8


@pl.program
class AtomicAccumulate:
    @pl.function(type=pl.FunctionType.InCore)
    def add_into(
        self, x: pl.Tensor[[R, C], pl.FP32], acc: pl.Out[pl.Tensor[[R, C], pl.FP32]]
    ) -> pl.Tensor[[R, C], pl.FP32]:
        t = pl.load(x, [0, 0], [R, C])
        acc = pl.store(t, [0, 0], acc, atomic=pl.AtomicType.Add)
        return acc

    @pl.function(type=pl.FunctionType.InCore)
    def copy(
        self, x: pl.Tensor[[R, C], pl.FP32], dst: pl.Out[pl.Tensor[[R, C], pl.FP32]]
    ) -> pl.Tensor[[R, C], pl.FP32]:
        t = pl.load(x, [0, 0], [R, C])
        dst = pl.store(t, [0, 0], dst)
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        x: pl.Tensor[[R, C], pl.FP32],
        total: pl.Out[pl.Tensor[[R, C], pl.FP32]],
        plain: pl.Out[pl.Tensor[[R, C], pl.FP32]],
    ) -> tuple[pl.Tensor[[R, C], pl.FP32], pl.Tensor[[R, C], pl.FP32]]:
        total = self.add_into(x, total)
        total = self.add_into(x, total)
        plain = self.copy(x, plain)
        return total, plain

    @pl.function(type=pl.FunctionType.Orchestration)
    def region(
        self, x: pl.Tensor[[R, C], pl.FP32], total: pl.Out[pl.Tensor[[R, C], pl.FP32]]
    ) -> pl.Tensor[[R, C], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP):
            t = pl.load(x, [0, 0], [R, C])
            total = pl.store(t, [0, 0], total, atomic=pl.AtomicType.Add)
        return total
