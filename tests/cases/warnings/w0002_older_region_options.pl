# W0002: core-group regions spelled as older releases spelled them. Each compiles as that
# release meant it, to today's `pl.at(level=pl.Level.CORE_GROUP, optimizations=[...])`,
# and the warning names today's spelling.
import pypto.language as pl


@pl.program
class OlderRegions:
    @pl.function
    def main(self, x: pl.Tensor[[128, 64], pl.FP32]) -> pl.Tensor[[128, 64], pl.FP32]:
        # The chunked-loop optimizer is today's pl.auto_chunk.
        with pl.at(level=pl.Level.CORE_GROUP, optimization=pl.chunked_loop_optimizer):
            for r in pl.parallel(0, 128, 32, chunk=2):
                part = pl.slice(x, [32, 64], [r, 0])
                x = pl.assemble(x, pl.mul(part, 2.0), [r, 0])
        # Called with a split: pl.auto_chunk and pl.split(mode).
        with pl.at(
            level=pl.Level.CORE_GROUP,
            optimization=pl.chunked_loop_optimizer(split=pl.SplitMode.LEFT_RIGHT),
        ):
            y = pl.add(x, 1.0)
        # split= alone is today's pl.split(mode); NONE asks for no split.
        with pl.at(level=pl.Level.CORE_GROUP, split=pl.SplitMode.UP_DOWN):
            y = pl.sub(y, x)
        with pl.at(pl.Level.CORE_GROUP, split=pl.SplitMode.NONE):
            y = pl.mul(y, y)
        # The region calls of older releases.
        with pl.incore():
            y = pl.add(y, x)
        with pl.incore(split=pl.SplitMode.UP_DOWN, name_hint="halves"):
            y = pl.add(y, y)
        with pl.auto_incore():
            for r in pl.parallel(0, 128, 64, chunk=1):
                half = pl.slice(y, [64, 64], [r, 0])
                y = pl.assemble(y, pl.exp(half), [r, 0])
        return y


@pl.program
class OlderBlockDispatch:
    @pl.function(type=pl.FunctionType.InCore)
    def rows(
        self, a: pl.Tensor[[256, 64], pl.FP32], out: pl.Out[pl.Tensor[[256, 64], pl.FP32]]
    ) -> pl.Tensor[[256, 64], pl.FP32]:
        start = pl.tile.get_block_idx() * 64
        t = pl.load(a, [start, 0], [64, 64])
        return pl.store(pl.exp(t), [start, 0], out)

    # An older release dispatched blocks with pl.cluster(core_num=N): today's pl.spmd.
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self, a: pl.Tensor[[256, 64], pl.FP32], out: pl.Out[pl.Tensor[[256, 64], pl.FP32]]
    ) -> pl.Tensor[[256, 64], pl.FP32]:
        with pl.cluster(core_num=4):
            out = self.rows(a, out)
        return out
