# Python computes an integer constant without bounds, so `-(2**63)`, in a body or in a
# module constant, is the smallest 64-bit integer though `2**63` alone is not one; a value
# past 64 bits after the negation, or without it, is still refused.
import pypto.language as pl


@pl.function(type=pl.FunctionType.Orchestration)
def bounds(x: pl.Tensor[[16], pl.FP32]) -> pl.Tensor[[16], pl.FP32]:
    lowest = -(2**63)
    also_lowest = -9223372036854775808
    shifted = -(1 << 63)
    too_low = -(2**63 + 1)
    too_high = 2**63
    return x


LOWEST = -(2**63)
TOO_HIGH = 2**63


@pl.function(type=pl.FunctionType.Orchestration)
def module_bounds(x: pl.Tensor[[16], pl.FP32]) -> pl.Tensor[[16], pl.FP32]:
    lowest = LOWEST
    return x
