# E0217: attrs= of a loop iterator is a dict literal with string-literal keys.
import pypto.language as pl


@pl.function(type=pl.FunctionType.Orchestration)
def main(a: pl.Tensor[[16], pl.FP32]) -> pl.Tensor[[16], pl.FP32]:
    for j in pl.range(4, attrs=[1, 2]):
        pass
    for k in pl.parallel(4, attrs={1: 2}):
        pass
    return a
