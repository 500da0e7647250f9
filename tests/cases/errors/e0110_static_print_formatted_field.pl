# pl.static_print reads each argument but a plain string as an expression, and each
# replacement field of an f-string too: an undefined name is E0201; a conversion (`!r`),
# a format spec (`:.3f`) or a `{name=}` field is E0110. Plain placeholders, doubled
# braces and comparisons inside a field are fine.
import pypto.language as pl

SCALE = 0.5


@pl.program
class Prints:
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, data: pl.Tensor[[16], pl.FP32], k: pl.Scalar[pl.INT64]) -> pl.Tensor[[16], pl.FP32]:
        pl.static_print(f"{{data}} is {data}, k == 2: {k == 2}, k != 1: {k != 1}", SCALE)
        pl.static_print(f"scale {SCALE:.3f}")
        pl.static_print(f"data {data!r}")
        pl.static_print(f"{k=}")
        pl.static_print("missing", missing_name)
        pl.static_print(f"also {missing_field}")
        return data
