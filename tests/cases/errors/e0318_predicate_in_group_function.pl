# A predicated core-group region belongs in an Orchestration function: written in a
# Group or Spmd function, it runs inside that function's task and the predicate would
# guard nothing (E0318). The same region without a predicate is fine there.
import pypto.language as pl


@pl.program
class Guarded:
    @pl.function(type=pl.FunctionType.Group)
    def grouped(
        self,
        src: pl.Tensor[[256, 64], pl.FP32],
        dst: pl.Out[pl.Tensor[[256, 64], pl.FP32]],
        flags: pl.Tensor[[4, 4], pl.INT32],
    ) -> pl.Tensor[[256, 64], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP, predicate=(flags[1, 2] != 0)):
            t = pl.load(src, [0, 0], [64, 64])
            dst = pl.store(t, [0, 0], dst)
        return dst

    @pl.function(type=pl.FunctionType.Spmd)
    def spread(
        self,
        src: pl.Tensor[[256, 64], pl.FP32],
        dst: pl.Out[pl.Tensor[[256, 64], pl.FP32]],
        flags: pl.Tensor[[4, 4], pl.INT32],
    ) -> pl.Tensor[[256, 64], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP, predicate=(flags[0, 0] > 3)):
            t = pl.load(src, [64, 0], [64, 64])
            dst = pl.store(t, [64, 0], dst)
        return dst

    @pl.function(type=pl.FunctionType.Group)
    def plain(
        self,
        src: pl.Tensor[[256, 64], pl.FP32],
        dst: pl.Out[pl.Tensor[[256, 64], pl.FP32]],
    ) -> pl.Tensor[[256, 64], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP):
            t = pl.load(src, [128, 0], [64, 64])
            dst = pl.store(t, [128, 0], dst)
        return dst
