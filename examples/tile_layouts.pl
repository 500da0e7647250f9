# Tile layouts (`pl.TileLayout`, issue 11): `pl.move` takes the block layout (`blayout=`) and
# the sub-block layout (`slayout=`) of the tile it makes, as PyPTO's mixed kernels write a
# cube result back to the vector unit row-major and unboxed. A layout arranges the hardware
# buffer and changes no value: on the CPU the move copies the tile as it is.
import pypto.language as pl


@pl.program
class TileLayouts:
    @pl.function(type=pl.FunctionType.InCore)
    def project(
        self,
        x: pl.Tensor[[16, 32], pl.FP16],
        w: pl.Tensor[[32, 16], pl.FP16],
        out: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        x_mat = pl.load(x, [0, 0], [16, 32], target_memory=pl.MemorySpace.Mat)
        x_left = pl.move(x_mat, target_memory=pl.MemorySpace.Left)
        w_mat = pl.load(w, [0, 0], [32, 16], target_memory=pl.MemorySpace.Mat)
        w_right = pl.move(w_mat, target_memory=pl.MemorySpace.Right)
        acc = pl.matmul(x_left, w_right)
        acc_vec = pl.move(
            acc,
            target_memory=pl.MemorySpace.Vec,
            blayout=pl.TileLayout.row_major,
            slayout=pl.TileLayout.none_box,
        )
        return pl.store(acc_vec, [0, 0], out)

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        x: pl.Tensor[[16, 32], pl.FP16],
        w: pl.Tensor[[32, 16], pl.FP16],
        out: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        out = self.project(x, w, out)
        return out
