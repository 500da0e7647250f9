# The keys of `@pl.function(attrs={...})` are strings: a number, or a constant that is
# not a string, as a key is E0212 (a `**mapping` in a dict is refused by the syntax
# checks, E0110). String keys, literal or constant, are fine.
import pypto.language as pl

KEY = "tag"
COUNT = 3


@pl.program
class Tagged:
    @pl.function(type=pl.FunctionType.Orchestration, attrs={"note": 1})
    def fine(self, data: pl.Tensor[[16], pl.FP32]) -> pl.Tensor[[16], pl.FP32]:
        return data

    @pl.function(type=pl.FunctionType.Orchestration, attrs={1: 2})
    def number_key(self, data: pl.Tensor[[16], pl.FP32]) -> pl.Tensor[[16], pl.FP32]:
        return data

    @pl.function(type=pl.FunctionType.Orchestration, attrs={KEY: 2})
    def string_constant_key(self, data: pl.Tensor[[16], pl.FP32]) -> pl.Tensor[[16], pl.FP32]:
        return data

    @pl.function(type=pl.FunctionType.Orchestration, attrs={COUNT: 2})
    def number_constant_key(self, data: pl.Tensor[[16], pl.FP32]) -> pl.Tensor[[16], pl.FP32]:
        return data

