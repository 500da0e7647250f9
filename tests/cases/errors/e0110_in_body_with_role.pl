# A function whose decorator gives a `role=` that does not make its body Python (here an
# Orchestrator, named through a module constant) is pl code: the forms pl lacks in its
# body are reported, once the decorator is resolved.
import pypto.language as pl

LEAD = pl.Role.Orchestrator


@pl.program
class Host:
    @pl.function(level=pl.Level.HOST, role=LEAD)
    def host_orch(self, x: pl.Tensor[[16], pl.FP32]) -> pl.Tensor[[16], pl.FP32]:
        y: pl.Tensor[[16], pl.FP32] = pl.add(x, x)
        y += x
        return y
