# E0314: two pl.split(...) entries in optimizations=[...].
import pypto.language as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[4, 8], pl.FP32]) -> pl.Tensor[[4, 8], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP, optimizations=[pl.split(pl.SplitMode.UP_DOWN), pl.split(pl.SplitMode.UP_DOWN)]):
            t = pl.load(x, [0, 0], [4, 8])
            x = pl.store(t, [0, 0], x)
        return x
