# A core-group region nested in another is outlined from the outer region's function
# (examples/nested_core_group_regions.pl); with `predicate=` it is E0317: the call sits in
# device code, where no task launch carries the predicate.
import pypto.language as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.Opaque)
    def main(self, x: pl.Tensor[[64], pl.FP32], flags: pl.Tensor[[4], pl.INT32]) -> pl.Tensor[[64], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP):
            y = pl.add(x, x)
            with pl.at(level=pl.Level.CORE_GROUP, predicate=(flags[0] > 0)):
                z = pl.mul(y, y)
        return z

    @pl.function(type=pl.FunctionType.Opaque)
    def in_spmd_loop(
        self, x: pl.Tensor[[64], pl.FP32], flags: pl.Tensor[[4], pl.INT32], y: pl.Out[pl.Tensor[[64], pl.FP32]]
    ) -> pl.Tensor[[64], pl.FP32]:
        for i in pl.spmd(4):
            with pl.at(level=pl.Level.CORE_GROUP, predicate=(flags[1] == 2)):
                y[:] = pl.add(x, x)
        return y
