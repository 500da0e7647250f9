# `img2col` unfolds a [H*W, C] feature map into the [M, K] window of a convolution's
# matrix (PTO's TIMG2COL; newer than ops.md): row m is the output position pos_m + m,
# column k the input element pos_k + k in (C1, KH, KW, C0) order, 0 where the kernel
# reads padding. Here H = W = 4, C = 16 (one C0 block of FP16), a 3x3 kernel with a
# padding of 1: columns 16..31 are the kernel tap (0, 1), the pixel one image row up, so
# `shifted` is `x` moved down by 4 rows with zeros above. The tile form reads a Mat tile
# and gives a Left tile, the matmul's lhs.
# run: --entry entry --arg x=16x16
# run: --entry entry --arg x=[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50,51,52,53,54,55,56,57,58,59,60,61,62,63,64,65,66,67,68,69,70,71,72,73,74,75,76,77,78,79,80,81,82,83,84,85,86,87,88,89,90,91,92,93,94,95,96,97,98,99,100,101,102,103,104,105,106,107,108,109,110,111,112,113,114,115,116,117,118,119,120,121,122,123,124,125,126,127,128,129,130,131,132,133,134,135,136,137,138,139,140,141,142,143,144,145,146,147,148,149,150,151,152,153,154,155,156,157,158,159,160,161,162,163,164,165,166,167,168,169,170,171,172,173,174,175,176,177,178,179,180,181,182,183,184,185,186,187,188,189,190,191,192,193,194,195,196,197,198,199,200,201,202,203,204,205,206,207,208,209,210,211,212,213,214,215,216,217,218,219,220,221,222,223,224,225,226,227,228,229,230,231,232,233,234,235,236,237,238,239,240,241,242,243,244,245,246,247,248,249,250,251,252,253,254,255,256]
import pypto.language as pl


@pl.program
class Unfold:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[16, 16], pl.FP16],
        w: pl.Tensor[[16, 16], pl.FP16],
        shifted: pl.Out[pl.Tensor[[16, 16], pl.FP16]],
        product: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ) -> tuple[pl.Tensor[[16, 16], pl.FP16], pl.Tensor[[16, 16], pl.FP32]]:
        window = pl.img2col(x, 0, 16, [16, 16], image_shape=(4, 4), kernel_size=(3, 3), padding=(1, 1, 1, 1))
        shifted = pl.assemble(shifted, window, [0, 0])
        fmap = pl.load(x, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        lhs = pl.img2col(fmap, 0, 0, [16, 16], image_shape=(4, 4), kernel_size=(1, 1))
        weight = pl.load(w, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        rhs = pl.move(weight, target_memory=pl.MemorySpace.Right)
        product = pl.store(pl.tile.matmul(lhs, rhs), [0, 0], product)
        return shifted, product

    @pl.function(type=pl.FunctionType.Orchestration)
    def entry(
        self,
        x: pl.Tensor[[16, 16], pl.FP16],
        w: pl.Tensor[[16, 16], pl.FP16],
        shifted: pl.Out[pl.Tensor[[16, 16], pl.FP16]],
        product: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ) -> tuple[pl.Tensor[[16, 16], pl.FP16], pl.Tensor[[16, 16], pl.FP32]]:
        shifted, product = self.kernel(x, w, shifted, product)
        return shifted, product
