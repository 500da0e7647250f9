# E0217: a list value of `pl.func_attr` holds variables or argument directions; the one
# other form is `cache_policy` (newer than ops.md), a list of `(parameter index, policy)`
# pairs of integer literals, as PyPTO's ConvertTensorToTileOps writes it. Another key
# with such pairs, or a pair of other values, is refused.
import pypto.language as pl


@pl.function(type=pl.FunctionType.InCore)
def declared(x: pl.Tensor[[32, 32], pl.FP32], out: pl.Out[pl.Tensor[[32, 32], pl.FP32]]) -> pl.Tensor[[32, 32], pl.FP32]:
    pl.func_attr({"cache_policy": [(0, 1)]})
    return pl.store(pl.load(x, [0, 0], [32, 32]), [0, 0], out)


@pl.function(type=pl.FunctionType.InCore)
def other_key(x: pl.Tensor[[32, 32], pl.FP32], out: pl.Out[pl.Tensor[[32, 32], pl.FP32]]) -> pl.Tensor[[32, 32], pl.FP32]:
    pl.func_attr({"tile_policy": [(0, 1)]})
    return pl.store(pl.load(x, [0, 0], [32, 32]), [0, 0], out)


@pl.function(type=pl.FunctionType.InCore)
def three(x: pl.Tensor[[32, 32], pl.FP32], out: pl.Out[pl.Tensor[[32, 32], pl.FP32]]) -> pl.Tensor[[32, 32], pl.FP32]:
    pl.func_attr({"cache_policy": [(0, 1, 2)]})
    return pl.store(pl.load(x, [0, 0], [32, 32]), [0, 0], out)
