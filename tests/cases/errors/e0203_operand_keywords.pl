# E0203: the operand of a shape, cast or fillpad op is named as PyPTO's wrapper of the
# spelling names it: `tensor=` (or `input=`) for pl.tensor.*, `tile=` for pl.tile.*,
# `input=` (or `value=`) for the unified pl.* name. plc's own placeholder `x=` is not a
# PyPTO keyword of these ops and is refused. An older release's `mode="zero"` on
# fillpad is today's `pad_value=` (warning W0001).
import pypto.language as pl


@pl.program
class OperandKeywords:
    @pl.function(type=pl.FunctionType.InCore)
    def shapes(self, x: pl.Tensor[[16, 32], pl.FP32], out: pl.Out[pl.Tensor[[16, 32], pl.FP32]]) -> pl.Tensor[[16, 32], pl.FP32]:
        window = pl.tensor.slice(tensor=x, shape=[8, 32], offset=[8, 0])
        flat = pl.tensor.reshape(tensor=window, shape=[256])
        swapped = pl.tensor.transpose(tensor=x, axis1=0, axis2=1)
        narrowed = pl.tensor.cast(input=x, target_type=pl.BF16)
        again = pl.reshape(input=flat, shape=[8, 32])
        t = pl.load(x, [0, 0], [16, 32])
        part = pl.tile.slice(tile=t, shape=[8, 32], offset=[0, 0])
        turned = pl.tile.transpose(tile=t, axis1=0, axis2=1)
        rows = pl.tile.reshape(tile=part, shape=[32, 8])
        filled = pl.fillpad(value=t)
        filled = pl.tile.fillpad(tile=filled)
        wrong = pl.tensor.reshape(x=x, shape=[512])
        moded = pl.fillpad(t, mode="zero")
        out = pl.store(filled, [0, 0], out)
        return out
