# Standalone `@pl.function` definitions, outside any `@pl.program` class and without
# `self`: an InCore kernel called by bare name from an Orchestration function that gives
# its level and role explicitly, and a plain `@pl.function` (Opaque by default) holding a
# `pl.graph` region, which stays Opaque after the region is outlined.
import pypto.language as pl

SIZE = 64


@pl.function(type=pl.FunctionType.InCore)
def double_kernel(
    x: pl.Tensor[[SIZE, SIZE], pl.FP32],
    y: pl.Out[pl.Tensor[[SIZE, SIZE], pl.FP32]],
) -> pl.Tensor[[SIZE, SIZE], pl.FP32]:
    t = pl.load(x, [0, 0], [SIZE, SIZE])
    y = pl.store(pl.add(t, t), [0, 0], y)
    return y


@pl.function(
    type=pl.FunctionType.Orchestration,
    level=pl.Level.CHIP,
    role=pl.Role.Orchestrator,
)
def double_entry(
    x: pl.Tensor[[SIZE, SIZE], pl.FP32],
    y: pl.Out[pl.Tensor[[SIZE, SIZE], pl.FP32]],
) -> pl.Tensor[[SIZE, SIZE], pl.FP32]:
    """Runs the standalone kernel once."""
    y = double_kernel(x, y)
    return y


@pl.function
def opaque_square(x: pl.Tensor[[SIZE], pl.FP32], y: pl.InOut[pl.Tensor[[SIZE], pl.FP32]]) -> pl.Tensor[[SIZE], pl.FP32]:
    with pl.graph("square_region"):
        with pl.at(level=pl.Level.CORE_GROUP):
            t = pl.load(x, [0], [SIZE])
            pl.store(pl.mul(t, t), [0], y)
    return y
