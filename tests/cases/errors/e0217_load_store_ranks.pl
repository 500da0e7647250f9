# E0217: the offsets, shapes and valid shapes of pl.load have as many items, and at least
# one; the shapes of pl.store, when given, as many as its offsets. A window of lower rank
# than the tensor is allowed (PyPTO reads it as a reinterpreting window).
import pypto.language as pl


@pl.program
class Ranks:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self, a: pl.Tensor[[4, 16, 32], pl.FP32], out: pl.Out[pl.Tensor[[4, 16, 32], pl.FP32]]
    ) -> pl.Tensor[[4, 16, 32], pl.FP32]:
        fine = pl.load(a, [0, 0], [16, 32])
        offsets = pl.load(a, [0, 0, 0], [16, 32])
        valid = pl.load(a, [0, 0], [16, 32], valid_shape=[16])
        empty = pl.load(a, [], [])
        out = pl.store(fine, [0, 0, 0], out)
        out = pl.store(fine, [0, 0, 0], out, [16, 32])
        return out
