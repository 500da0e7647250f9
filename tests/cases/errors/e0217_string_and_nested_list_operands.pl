# E0217: a string (a literal or a module constant) is no operand of an op that does not
# take one, and a list of offsets holds scalars, not lists.
import pypto.language as pl

BAD_VALUE = "not_a_number"
OFFSETS = [[0, 0], [64, 64]]


@pl.function
def add_string(x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
    a: pl.Tensor[[64], pl.FP32] = pl.add(x, BAD_VALUE)
    b: pl.Tensor[[64], pl.FP32] = pl.add(x, "literal")
    return b


@pl.function
def nested_offsets(t: pl.Tensor[[128, 128], pl.FP32], out: pl.Tensor[[128, 128], pl.FP32]) -> pl.Tensor[[128, 128], pl.FP32]:
    a: pl.Tile[[64, 64], pl.FP32] = pl.tile.load(t, OFFSETS, shapes=[64, 64])
    result: pl.Tensor[[128, 128], pl.FP32] = pl.tile.store(a, [0, 0], output_tensor=out)
    return result
