# E0207: pl.Tensor[..., pl.DN] is refused, as PyPTO refuses it (use pl.TensorView).
import pypto.language as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[4, 8], pl.FP32, pl.DN]) -> pl.Tensor[[4, 8], pl.FP32, pl.DN]:
        return x
