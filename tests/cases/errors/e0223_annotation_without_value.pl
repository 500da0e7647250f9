# E0223: an annotation without a value declares nothing in pl.
import pypto.language as pl


@pl.program
class Bad:
    @pl.function
    def main(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        y: pl.Tensor[[64], pl.FP32]
        return x
