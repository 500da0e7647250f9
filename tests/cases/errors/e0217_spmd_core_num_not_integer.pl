# E0217: the core count of pl.spmd() must be an integer expression.
import pypto.language as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[4, 8], pl.FP32]) -> pl.Tensor[[4, 8], pl.FP32]:
        with pl.spmd(core_num=2.5):
            t = pl.load(x, [0, 0], [4, 8])
            x = pl.store(t, [0, 0], x)
        return x
