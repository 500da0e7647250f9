# W0001: `pl.view(x, shape, offset)` is an older release's name of the slice: the window of
# `shape` at `offset` (today `pl.slice`); plc compiles it as that release meant it and names
# today's spelling. `pl.tensor.view` is today's other op (a reshape or a layout view).
import pypto.language as pl


@pl.program
class OlderView:
    @pl.function(type=pl.FunctionType.InCore)
    def window(
        self, x: pl.Tensor[[64, 128], pl.FP32], out: pl.Out[pl.Tensor[[32, 64], pl.FP32]]
    ) -> pl.Tensor[[32, 64], pl.FP32]:
        part: pl.Tensor[[32, 64], pl.FP32] = pl.view(x, [32, 64], [16, 32])
        t = pl.load(part, [0, 0], [32, 64])
        return pl.store(t, [0, 0], out)
