# A (128 x 128) by (128 x 64) matmul computed in two 64-row bands, then a leaky ReLU on
# each half of the result.
# Shows: `pl.matmul` on tiles moved to Left/Right memory, `pl.slice` views, tensor
# subscripts with slices (`c[0:BAND, :]`, `c[BAND:, :]`), Inline methods taking and
# returning `pl.Tile[...]` and returning `tuple[...]`, tuple unpacking of a call result.
import pypto.language as pl

M = 128
K = 128
N = 64
BAND = M // 2
LEAK = 0.1


@pl.program
class TiledMatmul:
    @pl.function(type=pl.FunctionType.Inline)
    def leaky_relu(self, t: pl.Tile[[BAND, N], pl.FP32]) -> pl.Tile[[BAND, N], pl.FP32]:
        return pl.maximum(t, pl.mul(t, LEAK))

    @pl.function(type=pl.FunctionType.Inline)
    def split_rows(
        self, c: pl.Tensor[[M, N], pl.FP32]
    ) -> tuple[pl.Tensor[[BAND, N], pl.FP32], pl.Tensor[[BAND, N], pl.FP32]]:
        top = c[0:BAND, :]
        bottom = c[BAND:, :]
        return top, bottom

    @pl.function(type=pl.FunctionType.InCore)
    def band_matmul(
        self,
        a: pl.Tensor[[BAND, K], pl.FP32],
        b: pl.Tensor[[K, N], pl.FP32],
        c: pl.Out[pl.Tensor[[BAND, N], pl.FP32]],
    ) -> pl.Tensor[[BAND, N], pl.FP32]:
        a_l1 = pl.load(a, [0, 0], [BAND, K], target_memory=pl.MemorySpace.Mat)
        b_l1 = pl.load(b, [0, 0], [K, N], target_memory=pl.MemorySpace.Mat)
        a_l0 = pl.move(a_l1, target_memory=pl.MemorySpace.Left)
        b_l0 = pl.move(b_l1, target_memory=pl.MemorySpace.Right)
        prod: pl.Tile[[BAND, N], pl.FP32] = pl.matmul(a_l0, b_l0)
        c = pl.store(prod, [0, 0], c)
        return c

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        a: pl.Tensor[[M, K], pl.FP32],
        b: pl.Tensor[[K, N], pl.FP32],
        c: pl.InOut[pl.Tensor[[M, N], pl.FP32]],
        act: pl.Out[pl.Tensor[[M, N], pl.FP32]],
    ) -> tuple[pl.Tensor[[M, N], pl.FP32], pl.Tensor[[M, N], pl.FP32]]:
        for i in pl.range(M // BAND):
            row = i * BAND
            a_band = pl.slice(a, [BAND, K], [row, 0])
            c_band = pl.slice(c, [BAND, N], [row, 0])
            c_band = self.band_matmul(a_band, b, c_band)
        top, bottom = self.split_rows(c)
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="activate"):
            t_top = pl.load(top, [0, 0], [BAND, N])
            t_bottom = pl.load(bottom, [0, 0], [BAND, N])
            pl.store(self.leaky_relu(t_top), [0, 0], act)
            pl.store(self.leaky_relu(t_bottom), [BAND, 0], act)
        return c, act
