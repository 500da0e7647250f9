# E0210: the annotation of an assignment does not match its value (dtype FP16 vs FP32).
import pypto.language as pl


@pl.program
class Bad:
    @pl.function
    def main(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        y: pl.Tensor[[64], pl.FP16] = pl.add(x, x)
        return x
