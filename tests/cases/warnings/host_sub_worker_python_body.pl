# A HOST SubWorker's body is Python that PyPTO keeps as written (an `InlineStmt`) and runs
# in the host process: plc reads its signature, checks the calls to it, and skips the body
# with note N0001 (a body of only `pass`, `...` or a docstring needs no note).
import pypto.language as pl


@pl.program
class HostChecks:
    @pl.function(level=pl.Level.HOST, role=pl.Role.SubWorker)
    def verify(f: pl.Tensor[[128, 128], pl.FP32]):
        import torch

        expected = torch.full((128, 128), 5.0, dtype=torch.float32)
        assert torch.allclose(f, expected)

    @pl.function(level=pl.Level.POD, role=pl.Role.SubWorker)
    def sample(logits: pl.Tensor[[128, 128], pl.FP32]) -> pl.Tensor[[128], pl.INT32]: ...

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self, x: pl.Tensor[[128, 128], pl.FP32]) -> pl.Tensor[[128, 128], pl.FP32]:
        self.verify(x)
        self.sample(x)
        return x
