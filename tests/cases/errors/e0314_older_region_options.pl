# E0314: the older options of a core-group region keep their older rules.
import pypto.language as pl


@pl.program
class OlderRegionErrors:
    @pl.function
    def main(self, x: pl.Tensor[[64, 64], pl.FP32]) -> pl.Tensor[[64, 64], pl.FP32]:
        # Only at the core-group level.
        with pl.at(level=pl.Level.HOST, optimization=pl.chunked_loop_optimizer):
            x = pl.add(x, x)
        # optimization= takes only the chunked-loop optimizer.
        with pl.at(level=pl.Level.CORE_GROUP, optimization=7):
            x = pl.add(x, x)
        # Not both older options at once.
        with pl.at(
            level=pl.Level.CORE_GROUP,
            optimization=pl.chunked_loop_optimizer,
            split=pl.SplitMode.UP_DOWN,
        ):
            x = pl.add(x, x)
        # Not the older and today's spelling together.
        with pl.at(level=pl.Level.CORE_GROUP, split=pl.SplitMode.UP_DOWN, optimizations=[pl.auto_chunk]):
            x = pl.add(x, x)
        # split= names a pl.SplitMode.
        with pl.incore(split=2):
            x = pl.add(x, x)
        # The optimizer's split= is never NONE (leave it out for no split).
        with pl.at(level=pl.Level.CORE_GROUP, optimization=pl.chunked_loop_optimizer(split=pl.SplitMode.NONE)):
            x = pl.add(x, x)
        return x
