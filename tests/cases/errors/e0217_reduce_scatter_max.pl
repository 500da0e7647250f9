# The host reduce-scatter implements only ReduceOp.Sum.
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Collective:
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(
        self,
        data: pl.InOut[pld.DistributedTensor[[2, 8], pl.FP32]],
    ) -> pld.DistributedTensor[[2, 8], pl.FP32]:
        data = pld.reduce_scatter(data, op=pld.ReduceOp.Max)
        return data
