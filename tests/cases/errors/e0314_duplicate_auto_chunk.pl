# E0314: an optimizations= list names pl.auto_chunk at most once, in either spelling.
import pypto.language as pl


@pl.function
def main(x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
    with pl.at(level=pl.Level.CORE_GROUP, optimizations=[pl.auto_chunk, pl.optimizations.auto_chunk]):
        for i in pl.parallel(8, chunk=4):
            x = pl.add(x, 1.0)
    return x
