# The first operand of a unified op (`pl.add`) or of a spelling with a scalar form
# (`pl.tile.max`) is lowered to choose the op; an error inside it is reported once, not
# again when the call's arguments are lowered.
import pypto.language as pl


@pl.function(type=pl.FunctionType.InCore)
def k(x: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
    t = pl.load(x, [0, 0], [16, 16])
    a = pl.add(undefined_a, t)
    b = pl.tile.max(undefined_b, 2)
    pl.store(t, [0, 0], out)
    return out
