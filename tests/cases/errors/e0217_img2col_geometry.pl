# E0217: the checks of `img2col` (PyPTO's TIMG2COL geometry): the tile form reads a Mat
# tile; FP16, BF16, FP32 or INT8 only; the source rows are H*W; the kernel fits the padded
# image; the window is aligned to (16, C0) and lies inside the unfolded matrix, pos_k on a
# C0 boundary.
import pypto.language as pl


@pl.program
class Unfold:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, x: pl.Tensor[[64, 32], pl.FP16], n: pl.Tensor[[64, 32], pl.INT32]):
        v = pl.load(x, [0, 0], [64, 32])
        a = pl.img2col(v, 0, 0, [16, 32], image_shape=(8, 8), kernel_size=(1, 1))
        b = pl.img2col(n, 0, 0, [16, 32], image_shape=(8, 8), kernel_size=(1, 1))
        c = pl.img2col(x, 0, 0, [16, 32], image_shape=(4, 8), kernel_size=(1, 1))
        d = pl.img2col(x, 0, 0, [16, 32], image_shape=(8, 8), kernel_size=(9, 9))
        e = pl.img2col(x, 0, 0, [16, 17], image_shape=(8, 8), kernel_size=(1, 1))
        f = pl.img2col(x, 0, 1, [16, 16], image_shape=(8, 8), kernel_size=(1, 1))
        g = pl.img2col(x, 0, 0, [80, 16], image_shape=(8, 8), kernel_size=(1, 1))
        h = pl.img2col(x, 0, 0, [16, 16], image_shape=(8, 8), kernel_size=(1, 1), stride=(0, 1))
