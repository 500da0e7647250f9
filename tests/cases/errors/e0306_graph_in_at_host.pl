# E0306: a graph region inside `pl.at(level=pl.Level.HOST)`, a hierarchy region, in an
# Orchestration function. The message names the construct as `pl.at(level=..., role=...)`.
import pypto.language as pl


@pl.program
class Bad:
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        with pl.at(level=pl.Level.HOST):
            with pl.graph("layer"):
                y: pl.Tensor[[64], pl.FP32] = pl.add(x, x)
        return y
