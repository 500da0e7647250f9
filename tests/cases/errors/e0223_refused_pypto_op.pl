# E0223: an op PyPTO has that plc refuses by name, with the reason (src/ir/ops.rs REFUSED).
import pypto.language as pl


@pl.function(type=pl.FunctionType.InCore)
def k(x: pl.Tensor[[16, 16], pl.FP32], y: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
    t = pl.load(x, [0, 0], [16, 16])
    picked = pl.tile.gather_compare(t, 0.0, t, out_cols=8)
    y = pl.store(t, [0, 0], y)
    return y
