# A PyPTO example module as it is written for Python, host code included: `import torch`,
# `from pypto.runtime import RunConfig`, a plain helper `def`, a run-time assignment, an
# undecorated method in the program class, and an `if __name__ == "__main__":` block with
# torch calls and f-strings. plc skips the host code with notes (N0001) and compiles the
# pl functions.
import argparse

import pypto.language as pl
import torch
from pypto.runtime import RunConfig

ROWS = 128
COLS = 128
TOL = 1e-5


@pl.jit
def residual_add(x: pl.Tensor, residual: pl.Tensor, out: pl.Out[pl.Tensor]):
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="residual_add"):
        tx = pl.load(x, [0, 0], [ROWS, COLS])
        tr = pl.load(residual, [0, 0], [ROWS, COLS])
        pl.store(pl.add(tx, tr), [0, 0], out)
    return out


@pl.program
class Residual:
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        x: pl.Tensor[[ROWS, COLS], pl.FP32],
        out: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
    ) -> pl.Tensor[[ROWS, COLS], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP):
            out[:] = pl.add(x, x)
        return out

    def describe(self):
        return f"Residual program over {ROWS}x{COLS} tiles"


def reference(x, residual):
    """Plain PyTorch reference for the check below."""
    return x + residual


_ENTRIES = {"residual_add": residual_add}
DEVICE = torch.device("cpu")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="residual add")
    parser.add_argument("-p", "--platform", default="a2a3sim")
    args = parser.parse_args()

    torch.manual_seed(0)
    x = torch.randn(ROWS, COLS, dtype=torch.float32)
    residual = torch.randn(ROWS, COLS, dtype=torch.float32)
    out = torch.zeros((ROWS, COLS), dtype=torch.float32)
    cfg = RunConfig(platform=args.platform)
    _ENTRIES["residual_add"](x, residual, out, config=cfg)

    diff = (out - reference(x, residual)).abs().max().item()
    assert diff < TOL, f"residual_add mismatch: max diff = {diff:.3e}"
    print(f"OK ({ROWS}x{COLS}, max diff {diff!r}, platform {args.platform!s:>10})")
