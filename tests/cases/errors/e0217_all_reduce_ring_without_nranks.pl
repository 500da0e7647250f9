# The ring form of pld.all_reduce needs a constant nranks: its signal's shape is fixed at compile time.
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Collective:
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(
        self,
        data: pl.InOut[pld.DistributedTensor[[2, 8], pl.FP32]],
    ) -> pld.DistributedTensor[[2, 8], pl.FP32]:
        data = pld.all_reduce(data, mode="ring")
        return data
