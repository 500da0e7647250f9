# A matmul on the cube core whose result the vector core of the same cluster finishes: the
# AIC kernel multiplies and pushes the product through a cross-core pipe, the AIV kernel
# pops it, adds a bias row by row, centres it, applies a ReLU and stores it. The Group function launches
# both as one mixed task (one cluster: the cube core and a vector core run at once).
# Shows: `pl.FunctionType.AIC`/`AIV`/`Group`, `pl.reserve_buffer`, `pl.import_peer_buffer`,
# `pl.aic_initialize_pipe`/`pl.aiv_initialize_pipe`, `pl.tpush_to_aiv`, `pl.tpop_from_aic`,
# `pl.tfree_to_aic`, `base=pl.AUTO` (the compiler places the buffer: PyPTO's sentinel -1, also
# the default), and `buf.base` (the base a buffer name gives) as the consumer buffer.
import pypto.language as pl

M = 64
K = 64
N = 64
SLOT = M * N * 4
CENTRE = 4.0


@pl.program
class CubeVectorPipe:
    @pl.function(type=pl.FunctionType.AIC)
    def multiply(self, a: pl.Tensor[[M, K], pl.FP32], b: pl.Tensor[[K, N], pl.FP32]):
        peer = pl.import_peer_buffer(name="c2v_slots", peer_func="finish")
        pl.aic_initialize_pipe(peer, dir_mask=1, slot_size=SLOT)
        a_l1 = pl.load(a, [0, 0], [M, K], target_memory=pl.MemorySpace.Mat)
        b_l1 = pl.load(b, [0, 0], [K, N], target_memory=pl.MemorySpace.Mat)
        a_l0 = pl.move(a_l1, target_memory=pl.MemorySpace.Left)
        b_l0 = pl.move(b_l1, target_memory=pl.MemorySpace.Right)
        prod: pl.Tile[[M, N], pl.FP32] = pl.matmul(a_l0, b_l0)
        pl.tpush_to_aiv(prod, split=0)

    @pl.function(type=pl.FunctionType.AIV)
    def finish(
        self,
        bias: pl.Tensor[[M, 1], pl.FP32],
        out: pl.Out[pl.Tensor[[M, N], pl.FP32]],
    ) -> pl.Tensor[[M, N], pl.FP32]:
        slots = pl.reserve_buffer(name="c2v_slots", size=SLOT, base=pl.AUTO)
        pl.aiv_initialize_pipe(c2v_consumer_buf=slots.base, dir_mask=1, slot_size=SLOT)
        prod: pl.Tile[[M, N], pl.FP32] = pl.tpop_from_aic(shape=[M, N], dtype=pl.FP32)
        shift = pl.load(bias, [0, 0], [M, 1])
        shifted = pl.row_expand_add(prod, shift)
        pl.tfree_to_aic(prod)
        out = pl.store(pl.relu(pl.sub(shifted, CENTRE)), [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Group)
    def fused(
        self,
        a: pl.Tensor[[M, K], pl.FP32],
        b: pl.Tensor[[K, N], pl.FP32],
        bias: pl.Tensor[[M, 1], pl.FP32],
        out: pl.Out[pl.Tensor[[M, N], pl.FP32]],
    ) -> pl.Tensor[[M, N], pl.FP32]:
        self.multiply(a, b)
        out = self.finish(bias, out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        a: pl.Tensor[[M, K], pl.FP32],
        b: pl.Tensor[[K, N], pl.FP32],
        bias: pl.Tensor[[M, 1], pl.FP32],
        out: pl.Out[pl.Tensor[[M, N], pl.FP32]],
    ) -> pl.Tensor[[M, N], pl.FP32]:
        out = self.fused(a, b, bias, out)
        return out
