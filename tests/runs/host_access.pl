# plc run: orchestration code that reads or writes a tensor's elements where simpler's
# host_build_graph runtime cannot do what `plc run` does (E0807). There the orchestration
# function runs to its end before any task runs, and an element access waits for the task
# that last wrote the tensor: after a task that writes it, or on a tensor the program made,
# the run stops (TENSOR_WAIT_TIMEOUT); a write after a task that reads the tensor is what
# that task reads (tests/runs/host_access_untracked.pl: a `pl.no_dep` write is not waited
# for). Each behaviour was seen on a2a3sim (docs/runtime.md); the entries
# without a warning print on a2a3sim what `plc run` prints (tests/simpler.rs).
# run: --entry read_after_task_writes
# run: --entry write_after_task_writes
# run: --entry write_after_task_reads
# run: --entry read_created
# run: --entry write_created
# run: --entry read_input_after_task_reads
# run: --entry before_any_task
# run: --entry untouched_tensor
import pypto.language as pl

N = 16


@pl.program
class HostAccess:
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
    def read_after_task_writes(
        self,
        x: pl.Tensor[[N, N], pl.FP32],
        y: pl.InOut[pl.Tensor[[N, N], pl.FP32]],
        out: pl.Out[pl.Tensor[[N, N], pl.FP32]],
    ) -> pl.Tensor[[N, N], pl.FP32]:
        out = self.copy(x, out)
        v = pl.tensor.read(out, [0, 1])
        pl.tensor.write(y, [0, 0], v)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def write_after_task_writes(
        self,
        x: pl.Tensor[[N, N], pl.FP32],
        out: pl.Out[pl.Tensor[[N, N], pl.FP32]],
    ) -> pl.Tensor[[N, N], pl.FP32]:
        out = self.copy(x, out)
        pl.tensor.write(out, [0, 0], 1.0)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def write_after_task_reads(
        self,
        y: pl.InOut[pl.Tensor[[N, N], pl.FP32]],
        out: pl.Out[pl.Tensor[[N, N], pl.FP32]],
    ) -> pl.Tensor[[N, N], pl.FP32]:
        out = self.copy(y, out)
        pl.tensor.write(y, [0, 0], 1.0)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def read_created(
        self,
        x: pl.Tensor[[N, N], pl.FP32],
        y: pl.InOut[pl.Tensor[[N, N], pl.FP32]],
    ) -> pl.Tensor[[N, N], pl.FP32]:
        c = pl.create_tensor([N, N], dtype=pl.FP32)
        c = self.copy(x, c)
        v = pl.tensor.read(c, [0, 1])
        pl.tensor.write(y, [0, 0], v)
        return y

    @pl.function(type=pl.FunctionType.Orchestration)
    def write_created(
        self,
        x: pl.Tensor[[N, N], pl.FP32],
        out: pl.Out[pl.Tensor[[N, N], pl.FP32]],
    ) -> pl.Tensor[[N, N], pl.FP32]:
        c = pl.create_tensor([N, N], dtype=pl.FP32)
        pl.tensor.write(c, [0, 0], 2.0)
        out = self.copy(c, out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def read_input_after_task_reads(
        self,
        x: pl.Tensor[[N, N], pl.FP32],
        y: pl.InOut[pl.Tensor[[N, N], pl.FP32]],
        out: pl.Out[pl.Tensor[[N, N], pl.FP32]],
    ) -> pl.Tensor[[N, N], pl.FP32]:
        out = self.copy(x, out)
        v = pl.tensor.read(x, [0, 1])
        pl.tensor.write(y, [0, 0], v)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def before_any_task(
        self,
        x: pl.Tensor[[N, N], pl.FP32],
        y: pl.InOut[pl.Tensor[[N, N], pl.FP32]],
        out: pl.Out[pl.Tensor[[N, N], pl.FP32]],
    ) -> pl.Tensor[[N, N], pl.FP32]:
        v = pl.tensor.read(x, [0, 1])
        pl.tensor.write(y, [0, 0], v)
        out = self.copy(y, out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def untouched_tensor(
        self,
        x: pl.Tensor[[N, N], pl.FP32],
        y: pl.InOut[pl.Tensor[[N, N], pl.FP32]],
        out: pl.Out[pl.Tensor[[N, N], pl.FP32]],
    ) -> pl.Tensor[[N, N], pl.FP32]:
        out = self.copy(x, out)
        v = pl.tensor.read(y, [0, 1])
        pl.tensor.write(y, [0, 0], v)
        return out
