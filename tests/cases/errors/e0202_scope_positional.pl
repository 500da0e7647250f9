# E0202: scope arguments in the wrong number: `pl.cluster` takes no positional argument,
# `pl.at` at most two, and `pl.spmd` exactly one core count.
import pypto.language as pl


@pl.jit
def entry(x: pl.Tensor, out: pl.Out[pl.Tensor]):
    with pl.cluster(2):
        pass
    with pl.at(pl.Level.HOST, pl.Role.Orchestrator, 3):
        pass
    with pl.spmd():
        pass
    return out
