# E0219: chunk_policy= of a chunked loop is "guarded" or "leading_full", as a string literal.
import pypto.language as pl


@pl.function
def main(x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
    with pl.at(level=pl.Level.CORE_GROUP, optimizations=[pl.auto_chunk]):
        for i in pl.parallel(8, chunk=4, chunk_policy="trailing"):
            x = pl.add(x, 1.0)
    return x
