# pld.all_reduce has two modes, mesh and ring.
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Collective:
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(
        self,
        data: pl.InOut[pld.DistributedTensor[[2, 8], pl.FP32]],
    ) -> pld.DistributedTensor[[2, 8], pl.FP32]:
        data = pld.all_reduce(data, mode="tree")
        return data
