# `pld.tensor.allgather(..., defer=True)` (newer than the reference; PyPTO's pass tests use
# it): PyPTO completes the gather in a later task, which the region `as tid` lets the
# consumer wait for. plc checks it and gathers in place.
import pypto.language as pl
import pypto.language.distributed as pld

ROWS = 2
COLS = 16


@pl.program
class DeferredGather:
    @pl.function(type=pl.FunctionType.Orchestration)
    def chip_orch(
        self,
        piece: pl.Tensor[[1, COLS], pl.FP32],
        joined: pl.Out[pl.Tensor[[1, ROWS * COLS], pl.FP32]],
        window: pl.InOut[pld.DistributedTensor[[ROWS, COLS], pl.FP32]],
        flags: pl.InOut[pld.DistributedTensor[[ROWS, 1], pl.INT32]],
    ) -> pl.Tensor[[1, ROWS * COLS], pl.FP32]:
        with pl.manual_scope():
            with pl.at(level=pl.Level.CORE_GROUP, name_hint="gather") as gathered:
                pld.tensor.allgather(piece, window, flags, defer=True)
            with pl.at(level=pl.Level.CORE_GROUP, name_hint="flatten", deps=[gathered]):
                for row in pl.range(ROWS):
                    part = pl.load(window, [row, 0], [1, COLS])
                    pl.store(part, [0, row * COLS], joined)
        return joined
