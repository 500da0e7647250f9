# A dict constant read with a key it does not have: E0218 at the subscript.
import pypto.language as pl

_DT = {"fp32": pl.FP32, "bf16": pl.BF16}


def Build(dtype: str = "fp16"):
    @pl.program
    class P:
        @pl.function(type=pl.FunctionType.Orchestration)
        def main(self, x: pl.Tensor[[16, 16], _DT[dtype]], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]):
            out = pl.add(x, out)
            return out

    return P
