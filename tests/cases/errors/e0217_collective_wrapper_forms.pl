# The forms of the host collective wrappers `pld.all_reduce` and `pld.reduce_scatter` that
# PyPTO's collective API refuses (E0217), one function each, and a well-formed one.
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Collective:
    # the mesh form takes no nranks
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def mesh_with_nranks(
        self,
        data: pl.InOut[pld.DistributedTensor[[2, 8], pl.FP32]],
    ) -> pld.DistributedTensor[[2, 8], pl.FP32]:
        data = pld.all_reduce(data, nranks=2)
        return data

    # the ring form needs a constant nranks: its signal's shape is fixed at compile time
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def ring_without_nranks(
        self,
        data: pl.InOut[pld.DistributedTensor[[2, 8], pl.FP32]],
    ) -> pld.DistributedTensor[[2, 8], pl.FP32]:
        data = pld.all_reduce(data, mode="ring")
        return data

    # the ring form implements only ReduceOp.Sum
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def ring_max(
        self,
        data: pl.InOut[pld.DistributedTensor[[2, 8], pl.FP32]],
    ) -> pld.DistributedTensor[[2, 8], pl.FP32]:
        data = pld.all_reduce(data, op=pld.ReduceOp.Max, mode="ring", nranks=2)
        return data

    # the ring form reduces only FP32 data
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def ring_fp16(
        self,
        data: pl.InOut[pld.DistributedTensor[[2, 8], pl.FP16]],
    ) -> pld.DistributedTensor[[2, 8], pl.FP16]:
        data = pld.all_reduce(data, mode="ring", nranks=2)
        return data

    # two modes: mesh and ring
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def unknown_mode(
        self,
        data: pl.InOut[pld.DistributedTensor[[2, 8], pl.FP32]],
    ) -> pld.DistributedTensor[[2, 8], pl.FP32]:
        data = pld.all_reduce(data, mode="tree")
        return data

    # the host reduce-scatter implements only ReduceOp.Sum
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def reduce_scatter_max(
        self,
        data: pl.InOut[pld.DistributedTensor[[2, 8], pl.FP32]],
    ) -> pld.DistributedTensor[[2, 8], pl.FP32]:
        data = pld.reduce_scatter(data, op=pld.ReduceOp.Max)
        return data

    # both wrappers as PyPTO accepts them
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def well_formed(
        self,
        data: pl.InOut[pld.DistributedTensor[[2, 8], pl.FP32]],
    ) -> pld.DistributedTensor[[2, 8], pl.FP32]:
        data = pld.all_reduce(data, mode="ring", nranks=2)
        data = pld.reduce_scatter(data)
        return data
