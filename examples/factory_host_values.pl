# Host values a program factory reads, evaluated at compile time as PyPTO programs write
# them: a dict of dtypes read with a constant key (`_DT[dtype]`, also in a pl body), a
# list of sizes, conditional expressions on constants, and small pure helper functions
# defined in the file (plain Python, host code, called with constant arguments).
import pypto.language as pl

_DT = {"fp32": pl.FP32, "bf16": pl.BF16}
SIZES = [16, 32, 64]


def _ceil_div(a, b):
    """A pure helper: evaluated when a constant expression calls it."""
    return (a + b - 1) // b


def _round_up(x, multiple=16):
    blocks = _ceil_div(x, multiple)
    if blocks == 0:
        blocks = 1
    return blocks * multiple


def BuildCast(rows: int = 40, dtype: str = "bf16", wide: bool = False):
    """Casts a [rows rounded up to 16, cols] tensor to FP32."""
    dt = _DT[dtype]
    cols = SIZES[2] if wide else SIZES[0]
    padded = _round_up(rows)

    @pl.program
    class CastAdd:
        @pl.function(type=pl.FunctionType.InCore)
        def cast_tile(
            self,
            x: pl.Tensor[[padded, cols], dt],
            out: pl.Out[pl.Tensor[[padded, cols], _DT["fp32"]]],
        ) -> pl.Tensor[[padded, cols], pl.FP32]:
            t = pl.cast(pl.load(x, [0, 0], [padded, cols]), target_type=_DT["fp32"])
            out = pl.store(t, [0, 0], out)
            return out

        @pl.function(type=pl.FunctionType.Orchestration)
        def cast(
            self,
            x: pl.Tensor[[padded, cols], dt],
            out: pl.Out[pl.Tensor[[padded, cols], pl.FP32]],
        ) -> pl.Tensor[[padded, cols], pl.FP32]:
            out = self.cast_tile(x, out)
            return out

    return CastAdd


if __name__ == "__main__":
    program = BuildCast(rows=40, wide=True)
