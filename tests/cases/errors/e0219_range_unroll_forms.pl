# E0219/E0218: pl.range(..., unroll=N) takes a constant factor N >= 1; pl.parallel() takes none.
import pypto.language as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[4, 8], pl.FP32], n: pl.Scalar[pl.INDEX]) -> pl.Tensor[[4, 8], pl.FP32]:
        for i in pl.range(4, unroll=0):
            x = pl.add(x, 1.0)
        for i in pl.range(4, unroll=n):
            x = pl.add(x, 1.0)
        for i in pl.parallel(4, unroll=2):
            x = pl.add(x, 1.0)
        return x
