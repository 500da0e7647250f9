# E0219: pl.pipeline() stage must be a positive integer.
import pypto.language as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[4, 8], pl.FP32]) -> pl.Tensor[[4, 8], pl.FP32]:
        for i in pl.pipeline(4, stage=0):
            x = pl.add(x, 1.0)
        return x
