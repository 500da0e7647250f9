# E0217: a padding mode may be written as the number it fills with, as PyPTO takes it:
# 0 (or 0.0) for pl.PadValue.zero, math.inf for max, -math.inf for min. Any other number,
# or a bool, is refused: the hardware pads with those three only.
import math

import pypto.language as pl


@pl.program
class PadNumbers:
    @pl.function(type=pl.FunctionType.InCore)
    def pads(self, x: pl.Tensor[[16, 32], pl.FP32], out: pl.Out[pl.Tensor[[16, 32], pl.FP32]]) -> pl.Tensor[[16, 32], pl.FP32]:
        t = pl.load(x, [0, 0], [16, 32])
        part = pl.slice(t, [16, 32], [0, 0], valid_shape=[16, 8], pad_value=-math.inf)
        low = pl.fillpad(part)
        high = pl.tile.fillpad(part, pad_value=math.inf)
        zero = pl.fillpad(part, 0)
        zero_f = pl.fillpad(part, pad_value=0.0)
        grown = pl.fillpad_expand(pl.slice(t, [8, 32], [0, 0]), [16, 32], pad_value=-math.inf)
        view = pl.tensor.slice(x, [8, 32], [0, 0], valid_shape=[8, 8], pad_value=0)
        five = pl.fillpad(part, pad_value=5)
        flag = pl.fillpad(part, pad_value=True)
        nearly = pl.fillpad(part, pad_value=1e30)
        out = pl.store(low, [0, 0], out)
        return out
