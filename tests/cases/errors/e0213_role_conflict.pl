# E0213: an Orchestration function with `role=pl.Role.SubWorker`: its role is Orchestrator.
import pypto.language as pl


@pl.program
class Bad:
    @pl.function(type=pl.FunctionType.Orchestration, role=pl.Role.SubWorker)
    def main(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        return x
