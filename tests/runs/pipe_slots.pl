# A cross-core pipe has a fixed number of slots (`slot_num=` of `*_initialize_pipe`, PTO-ISA's
# TPipe): a push needs a free slot, a pop takes the oldest tile pushed and holds its slot until
# the consumer's `tfree_*` hands it back. The cube kernel (called first) pushes four products,
# then stores its last one in `mark`; the vector kernel pops each product, adds what `mark`
# holds at that moment, stores the sum and frees the slot.
# - `reuse`: four pushes through two slots. The cube waits at its third push until the vector
#   kernel frees a slot, so the first two rows add the initial `mark` and the last two the
#   cube's product.
# - `ahead`: four slots. The cube runs ahead, pushing all four and marking before the vector
#   kernel starts, so every row adds the cube's product.
# - `deadlock`: the vector kernel never frees: after two pushes the cube waits for a slot, the
#   vector kernel for a third tile, and the run stops with E0801 naming both.
# - `more_pops`: the vector kernel pops a fifth tile nobody pushes: E0801 naming it.
# - `free_twice`: the vector kernel frees a slot it no longer holds: E0801.
# - `mismatch`: the two kernels set pipe 0 up with 2 and 4 slots: E0801 at the second.
# run: --entry reuse
# run: --entry ahead
# run: --entry deadlock
# run: --entry more_pops
# run: --entry free_twice
# run: --entry mismatch
import pypto.language as pl

N = 16
SLOT = N * N * 4


@pl.program
class PipeSlots:
    @pl.function(type=pl.FunctionType.AIC)
    def cube_two(
        self, a: pl.Tensor[[4 * N, N], pl.FP32], w: pl.Tensor[[N, N], pl.FP32], mark: pl.InOut[pl.Tensor[[N, N], pl.FP32]]
    ) -> pl.Tensor[[N, N], pl.FP32]:
        peer = pl.import_peer_buffer(name="c2v_slots", peer_func="vector_two")
        pl.aic_initialize_pipe(peer, dir_mask=1, slot_size=SLOT, slot_num=2)
        w_l0 = pl.move(pl.load(w, [0, 0], [N, N], target_memory=pl.MemorySpace.Mat), target_memory=pl.MemorySpace.Right)
        prod: pl.Tile[[N, N], pl.FP32] = pl.matmul(pl.move(pl.load(a, [0, 0], [N, N], target_memory=pl.MemorySpace.Mat), target_memory=pl.MemorySpace.Left), w_l0)
        for i in pl.range(4):
            a_l0 = pl.move(pl.load(a, [i * N, 0], [N, N], target_memory=pl.MemorySpace.Mat), target_memory=pl.MemorySpace.Left)
            prod = pl.matmul(a_l0, w_l0)
            pl.tpush_to_aiv(prod, split=0)
        mark = pl.store(prod, [0, 0], mark)
        return mark

    @pl.function(type=pl.FunctionType.AIC)
    def cube_four(
        self, a: pl.Tensor[[4 * N, N], pl.FP32], w: pl.Tensor[[N, N], pl.FP32], mark: pl.InOut[pl.Tensor[[N, N], pl.FP32]]
    ) -> pl.Tensor[[N, N], pl.FP32]:
        peer = pl.import_peer_buffer(name="c2v_slots", peer_func="vector_four")
        pl.aic_initialize_pipe(peer, dir_mask=1, slot_size=SLOT, slot_num=4)
        w_l0 = pl.move(pl.load(w, [0, 0], [N, N], target_memory=pl.MemorySpace.Mat), target_memory=pl.MemorySpace.Right)
        prod: pl.Tile[[N, N], pl.FP32] = pl.matmul(pl.move(pl.load(a, [0, 0], [N, N], target_memory=pl.MemorySpace.Mat), target_memory=pl.MemorySpace.Left), w_l0)
        for i in pl.range(4):
            a_l0 = pl.move(pl.load(a, [i * N, 0], [N, N], target_memory=pl.MemorySpace.Mat), target_memory=pl.MemorySpace.Left)
            prod = pl.matmul(a_l0, w_l0)
            pl.tpush_to_aiv(prod, split=0)
        mark = pl.store(prod, [0, 0], mark)
        return mark

    @pl.function(type=pl.FunctionType.AIV)
    def vector_two(
        self, mark: pl.Tensor[[N, N], pl.FP32], out: pl.Out[pl.Tensor[[4 * N, N], pl.FP32]]
    ) -> pl.Tensor[[4 * N, N], pl.FP32]:
        slots = pl.reserve_buffer(name="c2v_slots", size=2 * SLOT, base=pl.AUTO)
        pl.aiv_initialize_pipe(c2v_consumer_buf=slots.base, dir_mask=1, slot_size=SLOT, slot_num=2)
        for i in pl.range(4):
            prod: pl.Tile[[N, N], pl.FP32] = pl.tpop_from_aic(shape=[N, N], dtype=pl.FP32)
            seen = pl.add(prod, pl.load(mark, [0, 0], [N, N]))
            pl.tfree_to_aic(prod)
            out = pl.store(seen, [i * N, 0], out)
        return out

    @pl.function(type=pl.FunctionType.AIV)
    def vector_four(
        self, mark: pl.Tensor[[N, N], pl.FP32], out: pl.Out[pl.Tensor[[4 * N, N], pl.FP32]]
    ) -> pl.Tensor[[4 * N, N], pl.FP32]:
        slots = pl.reserve_buffer(name="c2v_slots", size=4 * SLOT, base=pl.AUTO)
        pl.aiv_initialize_pipe(c2v_consumer_buf=slots.base, dir_mask=1, slot_size=SLOT, slot_num=4)
        for i in pl.range(4):
            prod: pl.Tile[[N, N], pl.FP32] = pl.tpop_from_aic(shape=[N, N], dtype=pl.FP32)
            seen = pl.add(prod, pl.load(mark, [0, 0], [N, N]))
            pl.tfree_to_aic(prod)
            out = pl.store(seen, [i * N, 0], out)
        return out

    @pl.function(type=pl.FunctionType.AIV)
    def vector_keeps(
        self, mark: pl.Tensor[[N, N], pl.FP32], out: pl.Out[pl.Tensor[[4 * N, N], pl.FP32]]
    ) -> pl.Tensor[[4 * N, N], pl.FP32]:
        slots = pl.reserve_buffer(name="c2v_slots", size=2 * SLOT, base=pl.AUTO)
        pl.aiv_initialize_pipe(c2v_consumer_buf=slots.base, dir_mask=1, slot_size=SLOT, slot_num=2)
        for i in pl.range(4):
            prod: pl.Tile[[N, N], pl.FP32] = pl.tpop_from_aic(shape=[N, N], dtype=pl.FP32)
            out = pl.store(prod, [i * N, 0], out)
        return out

    @pl.function(type=pl.FunctionType.AIV)
    def vector_five(
        self, mark: pl.Tensor[[N, N], pl.FP32], out: pl.Out[pl.Tensor[[4 * N, N], pl.FP32]]
    ) -> pl.Tensor[[4 * N, N], pl.FP32]:
        slots = pl.reserve_buffer(name="c2v_slots", size=4 * SLOT, base=pl.AUTO)
        pl.aiv_initialize_pipe(c2v_consumer_buf=slots.base, dir_mask=1, slot_size=SLOT, slot_num=4)
        for i in pl.range(5):
            prod: pl.Tile[[N, N], pl.FP32] = pl.tpop_from_aic(shape=[N, N], dtype=pl.FP32)
            out = pl.store(prod, [(i % 4) * N, 0], out)
            pl.tfree_to_aic(prod)
        return out

    @pl.function(type=pl.FunctionType.AIV)
    def vector_frees_twice(
        self, mark: pl.Tensor[[N, N], pl.FP32], out: pl.Out[pl.Tensor[[4 * N, N], pl.FP32]]
    ) -> pl.Tensor[[4 * N, N], pl.FP32]:
        slots = pl.reserve_buffer(name="c2v_slots", size=4 * SLOT, base=pl.AUTO)
        pl.aiv_initialize_pipe(c2v_consumer_buf=slots.base, dir_mask=1, slot_size=SLOT, slot_num=4)
        for i in pl.range(4):
            prod: pl.Tile[[N, N], pl.FP32] = pl.tpop_from_aic(shape=[N, N], dtype=pl.FP32)
            out = pl.store(prod, [i * N, 0], out)
            pl.tfree_to_aic(prod)
            pl.tfree_to_aic(prod)
        return out

    @pl.function(type=pl.FunctionType.Group)
    def group_reuse(
        self, a: pl.Tensor[[4 * N, N], pl.FP32], w: pl.Tensor[[N, N], pl.FP32], mark: pl.InOut[pl.Tensor[[N, N], pl.FP32]],
        out: pl.Out[pl.Tensor[[4 * N, N], pl.FP32]],
    ) -> pl.Tensor[[4 * N, N], pl.FP32]:
        mark = self.cube_two(a, w, mark)
        out = self.vector_two(mark, out)
        return out

    @pl.function(type=pl.FunctionType.Group)
    def group_ahead(
        self, a: pl.Tensor[[4 * N, N], pl.FP32], w: pl.Tensor[[N, N], pl.FP32], mark: pl.InOut[pl.Tensor[[N, N], pl.FP32]],
        out: pl.Out[pl.Tensor[[4 * N, N], pl.FP32]],
    ) -> pl.Tensor[[4 * N, N], pl.FP32]:
        mark = self.cube_four(a, w, mark)
        out = self.vector_four(mark, out)
        return out

    @pl.function(type=pl.FunctionType.Group)
    def group_deadlock(
        self, a: pl.Tensor[[4 * N, N], pl.FP32], w: pl.Tensor[[N, N], pl.FP32], mark: pl.InOut[pl.Tensor[[N, N], pl.FP32]],
        out: pl.Out[pl.Tensor[[4 * N, N], pl.FP32]],
    ) -> pl.Tensor[[4 * N, N], pl.FP32]:
        mark = self.cube_two(a, w, mark)
        out = self.vector_keeps(mark, out)
        return out

    @pl.function(type=pl.FunctionType.Group)
    def group_more_pops(
        self, a: pl.Tensor[[4 * N, N], pl.FP32], w: pl.Tensor[[N, N], pl.FP32], mark: pl.InOut[pl.Tensor[[N, N], pl.FP32]],
        out: pl.Out[pl.Tensor[[4 * N, N], pl.FP32]],
    ) -> pl.Tensor[[4 * N, N], pl.FP32]:
        mark = self.cube_four(a, w, mark)
        out = self.vector_five(mark, out)
        return out

    @pl.function(type=pl.FunctionType.Group)
    def group_free_twice(
        self, a: pl.Tensor[[4 * N, N], pl.FP32], w: pl.Tensor[[N, N], pl.FP32], mark: pl.InOut[pl.Tensor[[N, N], pl.FP32]],
        out: pl.Out[pl.Tensor[[4 * N, N], pl.FP32]],
    ) -> pl.Tensor[[4 * N, N], pl.FP32]:
        mark = self.cube_four(a, w, mark)
        out = self.vector_frees_twice(mark, out)
        return out

    @pl.function(type=pl.FunctionType.Group)
    def group_mismatch(
        self, a: pl.Tensor[[4 * N, N], pl.FP32], w: pl.Tensor[[N, N], pl.FP32], mark: pl.InOut[pl.Tensor[[N, N], pl.FP32]],
        out: pl.Out[pl.Tensor[[4 * N, N], pl.FP32]],
    ) -> pl.Tensor[[4 * N, N], pl.FP32]:
        mark = self.cube_two(a, w, mark)
        out = self.vector_four(mark, out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def reuse(
        self, a: pl.Tensor[[4 * N, N], pl.FP32], w: pl.Tensor[[N, N], pl.FP32], mark: pl.InOut[pl.Tensor[[N, N], pl.FP32]],
        out: pl.Out[pl.Tensor[[4 * N, N], pl.FP32]],
    ) -> pl.Tensor[[4 * N, N], pl.FP32]:
        out = self.group_reuse(a, w, mark, out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def ahead(
        self, a: pl.Tensor[[4 * N, N], pl.FP32], w: pl.Tensor[[N, N], pl.FP32], mark: pl.InOut[pl.Tensor[[N, N], pl.FP32]],
        out: pl.Out[pl.Tensor[[4 * N, N], pl.FP32]],
    ) -> pl.Tensor[[4 * N, N], pl.FP32]:
        out = self.group_ahead(a, w, mark, out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def deadlock(
        self, a: pl.Tensor[[4 * N, N], pl.FP32], w: pl.Tensor[[N, N], pl.FP32], mark: pl.InOut[pl.Tensor[[N, N], pl.FP32]],
        out: pl.Out[pl.Tensor[[4 * N, N], pl.FP32]],
    ) -> pl.Tensor[[4 * N, N], pl.FP32]:
        out = self.group_deadlock(a, w, mark, out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def more_pops(
        self, a: pl.Tensor[[4 * N, N], pl.FP32], w: pl.Tensor[[N, N], pl.FP32], mark: pl.InOut[pl.Tensor[[N, N], pl.FP32]],
        out: pl.Out[pl.Tensor[[4 * N, N], pl.FP32]],
    ) -> pl.Tensor[[4 * N, N], pl.FP32]:
        out = self.group_more_pops(a, w, mark, out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def free_twice(
        self, a: pl.Tensor[[4 * N, N], pl.FP32], w: pl.Tensor[[N, N], pl.FP32], mark: pl.InOut[pl.Tensor[[N, N], pl.FP32]],
        out: pl.Out[pl.Tensor[[4 * N, N], pl.FP32]],
    ) -> pl.Tensor[[4 * N, N], pl.FP32]:
        out = self.group_free_twice(a, w, mark, out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def mismatch(
        self, a: pl.Tensor[[4 * N, N], pl.FP32], w: pl.Tensor[[N, N], pl.FP32], mark: pl.InOut[pl.Tensor[[N, N], pl.FP32]],
        out: pl.Out[pl.Tensor[[4 * N, N], pl.FP32]],
    ) -> pl.Tensor[[4 * N, N], pl.FP32]:
        out = self.group_mismatch(a, w, mark, out)
        return out
