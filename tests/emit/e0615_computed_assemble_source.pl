# A value computed in place as the source of an assembly in orchestration code
# (`out[:] = pl.add(x, x)` in an `@pl.jit` body, outside `pl.at`) is E0615 at the
# computation: the assembly only aliases its target, so the sum would be dropped (PyPTO's
# codegen: "Misplaced tensor op"). A view as the source stays an alias.
import pypto.language as pl


@pl.jit
def bad(x: pl.Tensor[[64, 64], pl.FP32], out: pl.Out[pl.Tensor[[64, 64], pl.FP32]]):
    out[:] = pl.add(x, x)
    return out


@pl.jit
def good(x: pl.Tensor[[64, 64], pl.FP32], out: pl.Out[pl.Tensor[[64, 64], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        out[:] = pl.add(x, x)
    return out
