# E0208: a HOST SubWorker is a self-contained Python function, so it declares no `self`
# (PyPTO: "SubWorker function 'verify' must not declare 'self'").
import pypto.language as pl


@pl.program
class HostChecks:
    @pl.function(level=pl.Level.HOST, role=pl.Role.SubWorker)
    def verify(self, f: pl.Tensor[[64], pl.FP32]):
        pass

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        self.verify(x)
        return x
