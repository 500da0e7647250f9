# E0314: dumps=[...] and no_dep_args=[...] list bare names of tensors defined at that point,
# each once.
import pypto.language as pl


@pl.program
class Entries:
    @pl.function(type=pl.FunctionType.Orchestration)
    def not_a_list(self, x: pl.Tensor[[4, 8], pl.FP32]) -> pl.Tensor[[4, 8], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP, dumps=x):
            t = pl.load(x, [0, 0], [4, 8])
            x = pl.store(t, [0, 0], x)
        return x

    @pl.function(type=pl.FunctionType.Orchestration)
    def scalar(self, x: pl.Tensor[[4, 8], pl.FP32], n: pl.Scalar[pl.INDEX]) -> pl.Tensor[[4, 8], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP, dumps=[n]):
            t = pl.load(x, [0, 0], [4, 8])
            x = pl.store(t, [0, 0], x)
        return x

    @pl.function(type=pl.FunctionType.Orchestration)
    def twice(self, x: pl.Tensor[[4, 8], pl.FP32]) -> pl.Tensor[[4, 8], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP, dumps=[x, x]):
            t = pl.load(x, [0, 0], [4, 8])
            x = pl.store(t, [0, 0], x)
        return x

    @pl.function(type=pl.FunctionType.Orchestration)
    def not_a_name(self, x: pl.Tensor[[4, 8], pl.FP32]) -> pl.Tensor[[4, 8], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP, no_dep_args=[pl.add(x, x)]):
            t = pl.load(x, [0, 0], [4, 8])
            x = pl.store(t, [0, 0], x)
        return x

    @pl.function(type=pl.FunctionType.Orchestration)
    def unknown(self, x: pl.Tensor[[4, 8], pl.FP32]) -> pl.Tensor[[4, 8], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP, no_dep_args=[later]):
            t = pl.load(x, [0, 0], [4, 8])
            x = pl.store(t, [0, 0], x)
        return x
