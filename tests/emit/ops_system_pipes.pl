# The `pl.system.*` spellings of the cross-core pipes (issue 11, ops.md §2.4) in both
# directions, and `pl.system.set_ffts`: the vector core pushes a tile to the cube, the cube
# pops it, frees its slot, multiplies and pushes the product back, and a second vector
# kernel pops the product, frees its slot and stores it. `plc run` runs a pipe as a queue
# between the kernels a Group calls one after the other (the pushing kernel first); the
# harness build prints what `plc run` prints (tests/compile.rs), and tests/run.rs checks the
# product.
import pypto.language as pl

M = 16
K = 32
N = 16
SLOT = 4096


@pl.program
class Pipes:
    @pl.function(type=pl.FunctionType.AIV)
    def send(self, a: pl.Tensor[[M, K], pl.FP32], flags: pl.Tensor[[8], pl.INT64]):
        pl.system.set_ffts(flags)
        slots = pl.system.import_peer_buffer(name="v2c_slots", peer_func="multiply")
        pl.system.aiv_initialize_pipe(0, slots, dir_mask=2, slot_size=SLOT, slot_num=4)
        t = pl.load(a, [0, 0], [M, K])
        pl.system.tpush_to_aic(pl.mul(t, 2.0), split=0)
        pl.tpush_to_aic(pl.mul(t, 3.0), split=0)

    @pl.function(type=pl.FunctionType.AIC)
    def multiply(self, b: pl.Tensor[[K, N], pl.FP32]):
        slots = pl.reserve_buffer(name="v2c_slots", size=SLOT)
        peer = pl.system.import_peer_buffer(name="c2v_slots", peer_func="finish")
        pl.system.aic_initialize_pipe(peer, slots, dir_mask=3, slot_size=SLOT, slot_num=4)
        b_l0 = pl.move(pl.load(b, [0, 0], [K, N], target_memory=pl.MemorySpace.Mat), target_memory=pl.MemorySpace.Right)
        a_l1: pl.Tile[[M, K], pl.FP32] = pl.tpop_from_aiv(shape=[M, K], dtype=pl.FP32)
        a_l0 = pl.move(a_l1, target_memory=pl.MemorySpace.Left)
        pl.tfree_to_aiv(a_l1)
        c_l1: pl.Tile[[M, K], pl.FP32] = pl.system.tpop_from_aiv(shape=[M, K], dtype=pl.FP32)
        c_l0 = pl.move(c_l1, target_memory=pl.MemorySpace.Left)
        pl.system.tfree_to_aiv(c_l1)
        pl.system.tpush_to_aiv(pl.matmul(a_l0, b_l0), split=0)
        pl.tpush_to_aiv(pl.matmul(c_l0, b_l0), split=0)

    @pl.function(type=pl.FunctionType.AIV)
    def finish(self, out: pl.Out[pl.Tensor[[M, N], pl.FP32]]) -> pl.Tensor[[M, N], pl.FP32]:
        slots = pl.system.reserve_buffer(name="c2v_slots", size=SLOT)
        pl.aiv_initialize_pipe(slots, dir_mask=1, slot_size=SLOT, slot_num=4)
        twice: pl.Tile[[M, N], pl.FP32] = pl.system.tpop_from_aic(shape=[M, N], dtype=pl.FP32)
        thrice: pl.Tile[[M, N], pl.FP32] = pl.tpop_from_aic(shape=[M, N], dtype=pl.FP32)
        out = pl.store(pl.add(pl.add(twice, thrice), 1.0), [0, 0], out)
        pl.system.tfree_to_aic(twice)
        pl.tfree_to_aic(thrice)
        return out

    @pl.function(type=pl.FunctionType.Group)
    def fused(
        self,
        a: pl.Tensor[[M, K], pl.FP32],
        b: pl.Tensor[[K, N], pl.FP32],
        flags: pl.Tensor[[8], pl.INT64],
        out: pl.Out[pl.Tensor[[M, N], pl.FP32]],
    ) -> pl.Tensor[[M, N], pl.FP32]:
        self.send(a, flags)
        self.multiply(b)
        out = self.finish(out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        a: pl.Tensor[[M, K], pl.FP32],
        b: pl.Tensor[[K, N], pl.FP32],
        flags: pl.Tensor[[8], pl.INT64],
        out: pl.Out[pl.Tensor[[M, N], pl.FP32]],
    ) -> pl.Tensor[[M, N], pl.FP32]:
        out = self.fused(a, b, flags, out)
        return out
