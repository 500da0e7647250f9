# The fixpipe epilogue of an accumulator written into a Mat tile: `pl.tile.assemble` takes
# `pre_quant=` (a real scale) and `pre_relu=`, as `pl.store` does, and narrows an INT32
# accumulator to FP16 on the way.
import pypto.language as pl


@pl.program
class ScaledScores:
    @pl.function(type=pl.FunctionType.InCore)
    def scores(
        self,
        a: pl.Tensor[[64, 32], pl.INT8],
        b: pl.Tensor[[64, 32], pl.INT8],
        out: pl.Out[pl.Tensor[[64, 64], pl.FP16]],
    ) -> pl.Tensor[[64, 64], pl.FP16]:
        a_mat = pl.tile.load(a, [0, 0], [64, 32], target_memory=pl.Mem.Mat)
        b_mat = pl.tile.load(b, [0, 0], [64, 32], target_memory=pl.Mem.Mat)
        acc = pl.tile.matmul(
            pl.tile.move(a_mat, target_memory=pl.Mem.Left),
            pl.tile.move(pl.tile.transpose_view(b_mat), target_memory=pl.Mem.Right),
        )
        staged = pl.tile.create([64, 64], pl.FP16, target_memory=pl.Mem.Mat)
        staged = pl.tile.assemble(staged, acc, [0, 0], pre_quant=0.125, pre_relu=True)
        return pl.tile.store(pl.tile.move(staged, target_memory=pl.Mem.Vec), [0, 0], out)
