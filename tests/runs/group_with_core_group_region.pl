# A Group function written by hand that holds a core-group region (the form PyPTO prints
# after OutlineClusterScopes when that pass runs before OutlineIncoreScopes):
# OutlineIncoreScopes outlines the region into an InCore function the Group function
# calls, as it does with a `pl.cluster()` region around a core-group region.
# run: --entry main
import pypto.language as pl


@pl.program
class GroupWithRegion:
    @pl.function(type=pl.FunctionType.Group)
    def doubled(
        self, x: pl.Tensor[[4, 64], pl.FP32], out: pl.Out[pl.Tensor[[4, 64], pl.FP32]]
    ) -> pl.Tensor[[4, 64], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP):
            t: pl.Tile[[4, 64], pl.FP32] = pl.load(x, [0, 0], [4, 64])
            u: pl.Tile[[4, 64], pl.FP32] = pl.add(t, t)
            out = pl.store(u, [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self, x: pl.Tensor[[4, 64], pl.FP32], out: pl.Out[pl.Tensor[[4, 64], pl.FP32]]
    ) -> pl.Tensor[[4, 64], pl.FP32]:
        out = self.doubled(x, out)
        return out
