# E0217: dst[...] = src takes a source of dst's kind whose extents fit the window; a
# scalar index drops its axis, and the source has the rank of what is left; an array takes
# one index.
import pypto.language as pl


@pl.program
class Writes:
    @pl.function(type=pl.FunctionType.Orchestration)
    def kinds(self, grid: pl.Tensor[[16, 16], pl.FP32], v: pl.Scalar[pl.FP32]) -> pl.Tensor[[16, 16], pl.FP32]:
        grid[0, 0] = v
        return grid

    @pl.function(type=pl.FunctionType.Orchestration)
    def extents(self, grid: pl.Tensor[[16, 16], pl.FP32]) -> pl.Tensor[[16, 16], pl.FP32]:
        top = pl.slice(grid, [8, 16], [0, 0])
        grid[0:8, :] = top
        grid[0:4, :] = top
        return grid

    @pl.function(type=pl.FunctionType.Orchestration)
    def reduced(self, grid: pl.Tensor[[16, 16], pl.FP32]) -> pl.Tensor[[16, 16], pl.FP32]:
        row = pl.slice(grid, [1, 16], [0, 0])
        grid[3, :] = row
        grid[3, :] = pl.reshape(row, [16])
        return grid

    @pl.function(type=pl.FunctionType.Orchestration)
    def arrays(self, grid: pl.Tensor[[16, 16], pl.FP32]) -> pl.Tensor[[16, 16], pl.FP32]:
        slots = pl.array.create(4, pl.INT32)
        slots[0, 1] = 3
        return grid
