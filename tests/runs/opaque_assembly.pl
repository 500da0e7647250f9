# An Opaque function (no `pl.at` region) is not orchestration code: `plc compile` makes no
# C++ of it (E0616), and PyPTO's passes make its tensor ops device code, where an assembly
# is a copy. So `plc run` copies, as before the orchestration rule of E0623
# (tests/runs/orchestration_assembly.pl), which does not apply here; found on PyPTO's
# examples/models/03_flash_attention.py, which `plc run` refused with five E0623.
# x = 1..32: doubled into rows 0..3 (sum 1056), copied into rows 4..7 (sum 528): 1584.
# run: --entry opaque --arg x=[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32]
import pypto.language as pl


@pl.function
def opaque(
    x: pl.Tensor[[4, 8], pl.FP32], out: pl.Out[pl.Tensor[[8, 8], pl.FP32]]
) -> pl.Tensor[[8, 8], pl.FP32]:
    y = pl.add(x, x)
    out = pl.assemble(out, y, [0, 0])
    out = pl.assemble(out, x, [4, 0])
    return out
