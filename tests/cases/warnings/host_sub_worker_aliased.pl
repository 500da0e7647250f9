# Whether a function's body is Python (a HOST SubWorker's) is decided once, from its
# decorator resolved against the module's names: here the level and the role are module
# constants, so the body below is Python, kept as written (note N0001), and the forms pl
# lacks in it (`+=`, `assert`, a lambda) are not reported.
import pypto.language as pl

OUTSIDE = pl.Level.HOST
WORKER = pl.Role.SubWorker


@pl.program
class Aliased:
    @pl.function(level=OUTSIDE, role=WORKER)
    def check(t: pl.Tensor[[16, 16], pl.FP32]):
        total = 0
        for v in t.flatten().tolist():
            total += v
        assert total >= 0, (lambda: "negative")()

    @pl.function(level=OUTSIDE, role=pl.Role.Orchestrator)
    def host_orch(self, x: pl.Tensor[[16, 16], pl.FP32]) -> pl.Tensor[[16, 16], pl.FP32]:
        self.check(x)
        return x
