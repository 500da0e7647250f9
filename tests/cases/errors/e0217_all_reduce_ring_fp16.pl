# The ring form of pld.all_reduce reduces only FP32 data.
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Collective:
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(
        self,
        data: pl.InOut[pld.DistributedTensor[[2, 8], pl.FP16]],
    ) -> pld.DistributedTensor[[2, 8], pl.FP16]:
        data = pld.all_reduce(data, mode="ring", nranks=2)
        return data
