# `x in (...)` and `x not in [...]` between compile-time constants fold like the other
# comparisons (Python's semantics: an equal element of a list or tuple, an equal key of a
# dict), so host code can choose a shape by membership.
import pypto.language as pl

LAYOUT = "wide"
KINDS = {"narrow": 16, "wide": 64}
COLS = 64 if LAYOUT in ("wide", "full") else 32
ROWS = 8 if LAYOUT not in ["narrow"] else 4
SCALE = 2.0 if "wide" in KINDS else 1.0
PADDED = 3 in [1, 2.0, 3.0]


@pl.program
class Membership:
    @pl.function(type=pl.FunctionType.InCore)
    def scale(
        self,
        x: pl.Tensor[[ROWS, COLS], pl.FP32],
        y: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
    ) -> pl.Tensor[[ROWS, COLS], pl.FP32]:
        t = pl.load(x, [0, 0], [ROWS, COLS])
        if PADDED:
            t = pl.mul(t, SCALE)
        return pl.store(t, [0, 0], y)
