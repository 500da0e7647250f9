# E0217: dumps= of a launch names tensors passed to that launch.
import pypto.language as pl


@pl.program
class Dumps:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, a: pl.Tensor[[16, 16], pl.FP32]) -> pl.Tensor[[16, 16], pl.FP32]:
        return a

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, a: pl.Tensor[[16, 16], pl.FP32], z: pl.Tensor[[16, 16], pl.FP32]) -> pl.Tensor[[16, 16], pl.FP32]:
        with pl.manual_scope():
            out, _ = pl.submit(self.kernel, a, dumps=[a])
            out, _ = pl.submit(self.kernel, a, dumps=[z])
        return out
