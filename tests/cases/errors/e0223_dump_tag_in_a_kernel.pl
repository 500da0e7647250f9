# E0223: pl.dump_tag() only inside an Orchestration or Inline function.
import pypto.language as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, x: pl.Tensor[[4, 8], pl.FP32], y: pl.Out[pl.Tensor[[4, 8], pl.FP32]]) -> pl.Tensor[[4, 8], pl.FP32]:
        pl.dump_tag(x)
        y = pl.store(pl.load(x, [0, 0], [4, 8]), [0, 0], y)
        return y
