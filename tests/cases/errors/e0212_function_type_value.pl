# E0212: `type=` must be spelled `pl.FunctionType.<kind>`; `auto_scope=` must be a bool
# literal.
import pypto.language as pl


@pl.program
class Bad:
    @pl.function(type="InCore")
    def kernel(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        y: pl.Tensor[[64], pl.FP32] = pl.add(x, x)
        return y

    @pl.function(auto_scope=0)
    def main(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        y: pl.Tensor[[64], pl.FP32] = self.kernel(x)
        return y
