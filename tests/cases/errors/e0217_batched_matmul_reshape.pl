# A tensor matmul of a 2-D lhs by a one-layer window of a stacked weight keeps the
# broadcast batch axis: [64, 512] x [1, 256, 512]^T is [1, 64, 256], 16384 elements, so
# reshaping it to [64, 128] is an error while [64, 256] is fine.
import pypto.language as pl


@pl.program
class BatchedProduct:
    @pl.function
    def main(
        self,
        x: pl.Tensor[[64, 512], pl.INT8],
        w: pl.Tensor[[4, 256, 512], pl.INT8],
    ) -> pl.Tensor[[64, 256], pl.INT32]:
        layer = w[1:2, 0:256, 0:512]
        acc = pl.matmul(x, layer, b_trans=True, out_dtype=pl.INT32)
        good: pl.Tensor[[64, 256], pl.INT32] = pl.reshape(acc, [64, 256])
        bad = pl.reshape(acc, [64, 128])
        return good
