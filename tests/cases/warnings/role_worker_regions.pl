# `pl.Role.Worker` is the name older PyPTO releases gave the role that is not an
# orchestrator (newer ones call it `SubWorker`). A program that spells it is read as those
# releases read it: a Worker function's body is pl code, and an inline
# `with pl.at(level=..., role=pl.Role.Worker):` region, at HOST or any other level, is
# outlined like any hierarchy region, into a function named `<parent>_<level>_worker_<n>`.
import pypto.language as pl


@pl.program
class Tiers:
    @pl.function(level=pl.Level.HOST, role=pl.Role.Worker)
    def square(self, a: pl.Tensor[[32], pl.FP32]) -> pl.Tensor[[32], pl.FP32]:
        b: pl.Tensor[[32], pl.FP32] = pl.mul(a, a)
        return b

    @pl.function
    def main(self, x: pl.Tensor[[32], pl.FP32]) -> pl.Tensor[[32], pl.FP32]:
        with pl.at(level=pl.Level.GLOBAL, role=pl.Role.Orchestrator):
            y: pl.Tensor[[32], pl.FP32] = pl.add(x, x)
            with pl.at(level=pl.Level.HOST, role=pl.Role.Worker):
                z: pl.Tensor[[32], pl.FP32] = self.square(y)
        with pl.at(pl.Level.POD, pl.Role.Worker):
            w: pl.Tensor[[32], pl.FP32] = pl.add(z, x)
        return w
