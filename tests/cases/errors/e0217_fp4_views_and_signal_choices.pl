# E0217: a packed FP4 tensor (two elements a byte) is not reshaped or transposed (PyPTO's
# newer rule), and the signal tile ops take only the notify operations and comparisons
# PTO has.
import pypto.language as pl


@pl.program
class Refused:
    @pl.function(type=pl.FunctionType.Orchestration)
    def packed(self, data: pl.Tensor[[8, 16], pl.FP4], cube: pl.Tensor[[2, 4, 16], pl.FP4]) -> pl.Tensor[[4, 32], pl.FP4]:
        flipped = pl.transpose(cube, axis1=0, axis2=1)
        return pl.reshape(data, [4, 32])

    @pl.function(type=pl.FunctionType.InCore)
    def signals(self, flag: pl.Tensor[[1], pl.INT32]) -> pl.Tensor[[1], pl.INT32]:
        pl.tile.comm_notify(flag, 1, op="add")
        pl.tile.comm_wait(flag, 1, cmp="gte")
        pl.tile.comm_wait(flag, 1.5, cmp="eq")
        return flag
