# plc run: orchestration code that reads or writes a tensor after a task writes it through
# `pl.no_dep` (E0807). simpler's host_build_graph runtime does not wait for an untracked
# write, and runs the task after the orchestration function returns: the read sees the
# values from before the task, and the task's write lands after the host's (seen on
# a2a3sim: `y` is `x`'s copy there, with `plc run`'s element [1, 1] overwritten).
# run: --entry read_after_untracked_write
import pypto.language as pl

N = 16


@pl.program
class HostAccessUntracked:
    @pl.function(type=pl.FunctionType.InCore)
    def copy(
        self,
        x: pl.Tensor[[N, N], pl.FP32],
        out: pl.Out[pl.Tensor[[N, N], pl.FP32]],
    ) -> pl.Tensor[[N, N], pl.FP32]:
        t = pl.load(x, [0, 0], [N, N])
        out = pl.store(t, [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def read_after_untracked_write(
        self,
        x: pl.Tensor[[N, N], pl.FP32],
        y: pl.InOut[pl.Tensor[[N, N], pl.FP32]],
    ) -> pl.Tensor[[N, N], pl.FP32]:
        y = self.copy(x, pl.no_dep(y))
        v = pl.tensor.read(y, [0, 1])
        pl.tensor.write(y, [1, 1], v)
        return y
