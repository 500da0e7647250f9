# Regions above CORE_GROUP: `pl.at(level=pl.Level.HOST, role=...)` and friends in an Opaque
# function. OutlineHierarchyScopes makes each one a function of its own carrying the
# region's level and role (`main_host_orch_0`, `main_global_1`), called where the region
# was; a region nested in another is outlined from the function the outer one became.
# The CORE_GROUP region inside the host region is outlined afterwards by
# OutlineIncoreScopes, which makes `main_host_orch_0` the Orchestration function that
# launches it.
import pypto.language as pl

N = 64


@pl.program
class Hierarchy:
    @pl.function
    def main(
        self,
        x: pl.Tensor[[N, N], pl.FP32],
        out: pl.Out[pl.Tensor[[N, N], pl.FP32]],
    ) -> pl.Tensor[[N, N], pl.FP32]:
        with pl.at(level=pl.Level.HOST, role=pl.Role.Orchestrator):
            with pl.at(level=pl.Level.CORE_GROUP):
                t = pl.load(x, [0, 0], [N, N])
                out = pl.store(pl.add(t, t), [0, 0], out)
        return out

    @pl.function
    def levels(self, x: pl.Tensor[[N], pl.FP32]) -> pl.Tensor[[N], pl.FP32]:
        with pl.at(level=pl.Level.GLOBAL, role=pl.Role.Orchestrator):
            y: pl.Tensor[[N], pl.FP32] = pl.add(x, x)
            with pl.at(level=pl.Level.CLUSTER_0):
                z: pl.Tensor[[N], pl.FP32] = pl.mul(y, y)
        return z
