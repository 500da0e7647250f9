# Chained constants bind every name; `math`'s constants are compile-time constants.
import math
from math import pi
import pypto.language as pl

TR = TC = 128
LOW = -math.inf
ROOT = math.sqrt  # error E0218: not a constant of `math`


@pl.program
class Program:
    @pl.function(type=pl.FunctionType.InCore)
    def clamp(
        self,
        x: pl.Tensor[[TR, TC], pl.FP32],
        out: pl.Out[pl.Tensor[[TR, TC], pl.FP32]],
    ) -> pl.Tensor[[TR, TC], pl.FP32]:
        t = pl.load(x, [0, 0], [TR, TC])
        u = pl.maxs(t, LOW)
        v = pl.muls(u, pi)
        w = pl.mins(v, math.inf)
        out = pl.store(w, [0, 0], out)
        return out
