# E0233: a subscript-write re-binds its target, so strict_ssa=True refuses it; the update is
# written with pl.assemble.
import pypto.language as pl


@pl.program(strict_ssa=True)
class Strict:
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, grid: pl.Tensor[[16, 16], pl.FP32]) -> pl.Tensor[[16, 16], pl.FP32]:
        part = pl.slice(grid, [8, 16], [0, 0])
        grid[8:16, :] = part
        return grid
