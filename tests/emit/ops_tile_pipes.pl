# The cross-core pipes in their `pl.tile.*` spellings (ops.md §2.3, issue 11), both ways in
# one Group: the first vector kernel scales its tile and pushes it to the cube
# (`tpush_to_aic`), the cube pops it (`tpop_from_aiv`, a Mat tile), multiplies it by `w`
# and pushes the product back (`tpush_to_aiv`), and the second vector kernel pops the
# product (`tpop_from_aic`) and stores it. `plc run` runs the pipes as queues between the
# kernels the Group calls in order; the harness build prints what `plc run` prints
# (tests/compile.rs).
import pypto.language as pl

N = 16
SLOT = N * N * 4


@pl.program
class Pipes:
    @pl.function(type=pl.FunctionType.AIV)
    def scale(self, x: pl.Tensor[[N, N], pl.FP32]):
        slots = pl.reserve_buffer(name="v2c_slots", size=SLOT)
        pl.aiv_initialize_pipe(slots, dir_mask=2, slot_size=SLOT, slot_num=4)
        t = pl.tile.muls(pl.load(x, [0, 0], [N, N]), 2.0)
        pl.tile.tpush_to_aic(t, split=0)

    @pl.function(type=pl.FunctionType.AIC)
    def multiply(self, w: pl.Tensor[[N, N], pl.FP32]):
        peer = pl.import_peer_buffer(name="v2c_slots", peer_func="scale")
        pl.aic_initialize_pipe(peer, dir_mask=3, slot_size=SLOT, slot_num=4)
        a: pl.Tile[[N, N], pl.FP32] = pl.tile.tpop_from_aiv(shape=[N, N], dtype=pl.FP32)
        a_l0 = pl.tile.move(a, target_memory=pl.MemorySpace.Left)
        pl.tfree_to_aiv(a)
        w_l0 = pl.tile.move(pl.load(w, [0, 0], [N, N], target_memory=pl.MemorySpace.Mat), target_memory=pl.MemorySpace.Right)
        prod: pl.Tile[[N, N], pl.FP32] = pl.tile.matmul(a_l0, w_l0)
        pl.tile.tpush_to_aiv(prod, split=0)

    @pl.function(type=pl.FunctionType.AIV)
    def finish(self, out: pl.Out[pl.Tensor[[N, N], pl.FP32]]) -> pl.Tensor[[N, N], pl.FP32]:
        slots = pl.reserve_buffer(name="c2v_slots", size=SLOT)
        pl.aiv_initialize_pipe(slots, dir_mask=1, slot_size=SLOT, slot_num=4)
        prod: pl.Tile[[N, N], pl.FP32] = pl.tile.tpop_from_aic(shape=[N, N], dtype=pl.FP32)
        out = pl.store(prod, [0, 0], out)
        pl.tfree_to_aic(prod)
        return out

    @pl.function(type=pl.FunctionType.Group)
    def fused(
        self,
        x: pl.Tensor[[N, N], pl.FP32],
        w: pl.Tensor[[N, N], pl.FP32],
        out: pl.Out[pl.Tensor[[N, N], pl.FP32]],
    ) -> pl.Tensor[[N, N], pl.FP32]:
        self.scale(x)
        self.multiply(w)
        out = self.finish(out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        x: pl.Tensor[[N, N], pl.FP32],
        w: pl.Tensor[[N, N], pl.FP32],
        out: pl.Out[pl.Tensor[[N, N], pl.FP32]],
    ) -> pl.Tensor[[N, N], pl.FP32]:
        out = self.fused(x, w, out)
        return out
