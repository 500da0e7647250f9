# E0202: a launch may omit only trailing pl.Out parameters (the runtime allocates them);
# `y` is an input, so the call must pass it. (The reference rule: Submit's arguments are a
# prefix of the callee's parameters and the omitted tail must be Out.)
import pypto.language as pl


@pl.program
class Prog:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        a: pl.Out[pl.Tensor[[16], pl.FP32]],
        x: pl.Tensor[[16], pl.FP32],
        b: pl.Out[pl.Tensor[[16], pl.FP32]],
        y: pl.Tensor[[16], pl.FP32],
    ) -> tuple[pl.Tensor[[16], pl.FP32], pl.Tensor[[16], pl.FP32]]:
        return a, b

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[16], pl.FP32], y: pl.Tensor[[16], pl.FP32]):
        with pl.manual_scope():
            (a, b), tid = pl.spmd_submit(self.kernel, x, y, core_num=4)
