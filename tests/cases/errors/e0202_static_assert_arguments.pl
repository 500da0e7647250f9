# pl.static_assert takes a condition and an optional message (E0202), the message a string
# literal (E0217).
import pypto.language as pl

ROWS = 16


@pl.program
class Asserts:
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, data: pl.Tensor[[ROWS], pl.FP32]) -> pl.Tensor[[ROWS], pl.FP32]:
        pl.static_assert(ROWS % 8 == 0, "ROWS is a multiple of 8")
        pl.static_assert()
        pl.static_assert(ROWS > 0, "positive", "twice")
        pl.static_assert(ROWS > 0, ROWS)
        return data
