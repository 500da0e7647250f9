# Forms of PyPTO's language that its own tests use and plc reads as PyPTO does (issue 11,
# ops.md §2-§3): the hardware pipes of `pl.PipeType` named by the sync ops, and the two
# AIV lanes of `for lane in pl.split_aiv(2, mode=...)` (plc runs the lanes one after the
# other), and the unroll hint of `pl.range(..., unroll=N)` (kept on the loop, which runs as
# written), and the device debug print `pl.runtime_print` of a tile or a tensor (it changes
# no value; plc's CPU interpreter and kernels print nothing for it), and the argument
# direction markers `pl.adir.<direction>(x)` of PyPTO's printed calls, and a local
# annotation whose shape names an integer scalar in scope (`pl.Tensor[[rows, 32], ...]`).
import pypto.language as pl


@pl.program
class Forms:
    @pl.function(type=pl.FunctionType.InCore)
    def synced(
        self, x: pl.Tensor[[16, 32], pl.FP32], y: pl.Out[pl.Tensor[[16, 32], pl.FP32]]
    ) -> pl.Tensor[[16, 32], pl.FP32]:
        t = pl.load(x, [0, 0], [16, 32])
        pl.runtime_print(t)
        pl.system.sync_src(set_pipe=pl.PipeType.MTE2, wait_pipe=pl.PipeType.V, event_id=0)
        pl.system.sync_dst(set_pipe=pl.PipeType.MTE2, wait_pipe=pl.PipeType.V, event_id=0)
        doubled = pl.tile.muls(t, 2.0)
        pl.system.sync_src(set_pipe=pl.PipeType.V, wait_pipe=pl.PipeType.MTE3, event_id=1)
        pl.system.sync_dst(set_pipe=pl.PipeType.V, wait_pipe=pl.PipeType.MTE3, event_id=1)
        y = pl.store(doubled, [0, 0], y)
        return y

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self, x: pl.Tensor[[16, 32], pl.FP32], y: pl.Out[pl.Tensor[[16, 32], pl.FP32]]
    ) -> pl.Tensor[[16, 32], pl.FP32]:
        pl.tensor.runtime_print(x)
        y = self.synced(x, y)
        return y

    @pl.function(type=pl.FunctionType.Orchestration)
    def halves(
        self,
        a: pl.Tensor[[32, 16], pl.FP32],
        b: pl.Tensor[[32, 16], pl.FP32],
        out: pl.Out[pl.Tensor[[32, 16], pl.FP32]],
    ) -> pl.Tensor[[32, 16], pl.FP32]:
        # Each lane adds its half of the rows.
        for lane in pl.split_aiv(2, mode=pl.SplitMode.UP_DOWN):
            row = lane * 16
            ta = pl.load(a, [row, 0], [16, 16])
            tb = pl.load(b, [row, 0], [16, 16])
            out = pl.store(pl.add(ta, tb), [row, 0], out)
        return out

    @pl.function(type=pl.FunctionType.InCore)
    def scaled_halves(
        self, a: pl.Tensor[[16, 32], pl.FP32], out: pl.Out[pl.Tensor[[16, 32], pl.FP32]]
    ) -> pl.Tensor[[16, 32], pl.FP32]:
        # In a kernel the lanes need no region of their own: lane 0 scales the left
        # columns by 1, lane 1 the right ones by 2.
        for lane in pl.split_aiv(2, mode=pl.SplitMode.LEFT_RIGHT):
            col = lane * 16
            t = pl.load(a, [0, col], [16, 16])
            out = pl.store(pl.tile.muls(t, pl.cast(lane + 1, pl.FP32)), [0, col], out)
        return out

    @pl.function(type=pl.FunctionType.InCore)
    def unrolled(
        self, a: pl.Tensor[[16, 32], pl.FP32], out: pl.Out[pl.Tensor[[16, 32], pl.FP32]]
    ) -> pl.Tensor[[16, 32], pl.FP32]:
        for i in pl.range(4, unroll=2):
            t = pl.load(a, [i * 4, 0], [4, 32])
            out = pl.store(pl.tile.adds(t, 1.0), [i * 4, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def add_one(
        self, a: pl.Tensor[[16, 32], pl.FP32], out: pl.Out[pl.Tensor[[16, 32], pl.FP32]]
    ) -> pl.Tensor[[16, 32], pl.FP32]:
        # The direction markers PyPTO's printer writes around every argument of a call:
        # checked, then dropped (plc derives the directions itself).
        # A scalar in scope names a run-time extent in a local annotation.
        rows = pl.tensor.dim(a, 0)
        window: pl.Tensor[[rows, 32], pl.FP32] = pl.slice(a, [16, 32], [rows - 16, 0])
        out = self.unrolled(pl.adir.input(window), pl.adir.output_existing(out))
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def scale(
        self, a: pl.Tensor[[16, 32], pl.FP32], out: pl.Out[pl.Tensor[[16, 32], pl.FP32]]
    ) -> pl.Tensor[[16, 32], pl.FP32]:
        out = self.scaled_halves(a, out)
        return out
