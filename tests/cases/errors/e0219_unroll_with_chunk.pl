# E0219: unroll= and chunk= of pl.range are mutually exclusive.
import pypto.language as pl


@pl.function
def main(x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
    with pl.at(level=pl.Level.CORE_GROUP, optimizations=[pl.auto_chunk]):
        for i in pl.range(8, chunk=4, unroll=2):
            x = pl.add(x, 1.0)
    return x
