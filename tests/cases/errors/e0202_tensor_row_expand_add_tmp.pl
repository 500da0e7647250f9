# E0202: only the tile form of `row_expand_add` takes a scratch tile; a tensor has none to
# give (PyPTO: "Tensor inputs must not pass tmp").
import pypto.language as pl


@pl.function(type=pl.FunctionType.Opaque)
def shift(x: pl.Tensor[[16, 32], pl.FP32], rv: pl.Tensor[[16, 1], pl.FP32], scratch: pl.Tensor[[16, 32], pl.FP32]) -> pl.Tensor[[16, 32], pl.FP32]:
    return pl.row_expand_add(x, rv, scratch)
