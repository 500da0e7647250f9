# E0314: pl.at(no_dep_args=[...]) names a tensor twice.
import pypto.language as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[4, 8], pl.FP32]) -> pl.Tensor[[4, 8], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP, no_dep_args=[x, x]):
            t = pl.load(x, [0, 0], [4, 8])
            x = pl.store(t, [0, 0], x)
        return x
