# E0233: under strict_ssa=True a name is bound once per scope. A loop body is a scope
# of its own (binding an outer name there is allowed); its names stay visible after it.
import pypto.language as pl


@pl.program(strict_ssa=True)
class StrictProgram:
    @pl.function(type=pl.FunctionType.Orchestration)
    def twice(self, inp: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        acc = pl.add(inp, inp)
        acc = pl.mul(acc, acc)
        return acc

    @pl.function(type=pl.FunctionType.Orchestration)
    def parameter(self, inp: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        inp = pl.add(inp, inp)
        return inp


@pl.program
class StrictFunction:
    @pl.function(type=pl.FunctionType.Orchestration, strict_ssa=True)
    def scopes(self, inp: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        outer = pl.add(inp, inp)
        for i in pl.range(4):
            outer = pl.mul(inp, inp)
            inner = pl.add(inp, inp)
        inner = pl.mul(inp, inp)
        return outer
