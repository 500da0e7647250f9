# The kernels a Group calls run together, as the runtime runs a mixed task, whatever order
# the Group calls them in: a pop of an empty cross-core pipe lets the other kernels run
# until one pushes on it. `in_order` and `reversed` call the same three kernels (vector
# scale -> cube multiply -> vector store) in opposite orders and print the same lines;
# `ping_pong` passes four tiles to the cube and back in a loop, each kernel waiting on the
# other at every step (the cube kernel called first); `deadlock` has both kernels pop
# before either pushes: E0801 at the pop that found no kernel able to go on, naming what
# each waits for.
# run: --entry in_order
# run: --entry reversed
# run: --entry ping_pong
# run: --entry deadlock
import pypto.language as pl

N = 16
SLOT = N * N * 4


@pl.program
class Together:
    @pl.function(type=pl.FunctionType.AIV)
    def scale(self, x: pl.Tensor[[N, N], pl.FP32]):
        t = pl.tile.muls(pl.load(x, [0, 0], [N, N]), 2.0)
        pl.tpush_to_aic(t, split=0)

    @pl.function(type=pl.FunctionType.AIC)
    def multiply(self, w: pl.Tensor[[N, N], pl.FP32]):
        a: pl.Tile[[N, N], pl.FP32] = pl.tpop_from_aiv(shape=[N, N], dtype=pl.FP32)
        a_l0 = pl.move(a, target_memory=pl.MemorySpace.Left)
        w_l0 = pl.move(pl.load(w, [0, 0], [N, N], target_memory=pl.MemorySpace.Mat), target_memory=pl.MemorySpace.Right)
        prod: pl.Tile[[N, N], pl.FP32] = pl.matmul(a_l0, w_l0)
        pl.tpush_to_aiv(prod, split=0)

    @pl.function(type=pl.FunctionType.AIV)
    def finish(self, out: pl.Out[pl.Tensor[[N, N], pl.FP32]]) -> pl.Tensor[[N, N], pl.FP32]:
        prod: pl.Tile[[N, N], pl.FP32] = pl.tpop_from_aic(shape=[N, N], dtype=pl.FP32)
        out = pl.store(prod, [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Group)
    def forward(
        self,
        x: pl.Tensor[[N, N], pl.FP32],
        w: pl.Tensor[[N, N], pl.FP32],
        out: pl.Out[pl.Tensor[[N, N], pl.FP32]],
    ) -> pl.Tensor[[N, N], pl.FP32]:
        self.scale(x)
        self.multiply(w)
        out = self.finish(out)
        return out

    @pl.function(type=pl.FunctionType.Group)
    def backward(
        self,
        x: pl.Tensor[[N, N], pl.FP32],
        w: pl.Tensor[[N, N], pl.FP32],
        out: pl.Out[pl.Tensor[[N, N], pl.FP32]],
    ) -> pl.Tensor[[N, N], pl.FP32]:
        out = self.finish(out)
        self.multiply(w)
        self.scale(x)
        return out

    @pl.function(type=pl.FunctionType.AIC)
    def cube_steps(self, w: pl.Tensor[[N, N], pl.FP32]):
        w_l0 = pl.move(pl.load(w, [0, 0], [N, N], target_memory=pl.MemorySpace.Mat), target_memory=pl.MemorySpace.Right)
        for i in pl.range(4):
            a: pl.Tile[[N, N], pl.FP32] = pl.tpop_from_aiv(shape=[N, N], dtype=pl.FP32)
            prod: pl.Tile[[N, N], pl.FP32] = pl.matmul(pl.move(a, target_memory=pl.MemorySpace.Left), w_l0)
            pl.tpush_to_aiv(prod, split=0)

    @pl.function(type=pl.FunctionType.AIV)
    def vector_steps(
        self, x: pl.Tensor[[N, N], pl.FP32], out: pl.Out[pl.Tensor[[4 * N, N], pl.FP32]]
    ) -> pl.Tensor[[4 * N, N], pl.FP32]:
        t = pl.load(x, [0, 0], [N, N])
        for i in pl.range(4):
            pl.tpush_to_aic(t, split=0)
            back: pl.Tile[[N, N], pl.FP32] = pl.tpop_from_aic(shape=[N, N], dtype=pl.FP32)
            t = pl.tile.muls(back, 0.25)
            out = pl.store(t, [i * N, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Group)
    def steps(
        self, x: pl.Tensor[[N, N], pl.FP32], w: pl.Tensor[[N, N], pl.FP32], out: pl.Out[pl.Tensor[[4 * N, N], pl.FP32]]
    ) -> pl.Tensor[[4 * N, N], pl.FP32]:
        self.cube_steps(w)
        out = self.vector_steps(x, out)
        return out

    @pl.function(type=pl.FunctionType.AIV)
    def wait_then_push(self, x: pl.Tensor[[N, N], pl.FP32]):
        back: pl.Tile[[N, N], pl.FP32] = pl.tpop_from_aic(shape=[N, N], dtype=pl.FP32)
        pl.tpush_to_aic(back, split=0)

    @pl.function(type=pl.FunctionType.Group)
    def stuck(self, x: pl.Tensor[[N, N], pl.FP32], w: pl.Tensor[[N, N], pl.FP32]):
        self.multiply(w)
        self.wait_then_push(x)

    @pl.function(type=pl.FunctionType.Orchestration)
    def in_order(
        self, x: pl.Tensor[[N, N], pl.FP32], w: pl.Tensor[[N, N], pl.FP32], out: pl.Out[pl.Tensor[[N, N], pl.FP32]]
    ) -> pl.Tensor[[N, N], pl.FP32]:
        out = self.forward(x, w, out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def reversed(
        self, x: pl.Tensor[[N, N], pl.FP32], w: pl.Tensor[[N, N], pl.FP32], out: pl.Out[pl.Tensor[[N, N], pl.FP32]]
    ) -> pl.Tensor[[N, N], pl.FP32]:
        out = self.backward(x, w, out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def ping_pong(
        self, x: pl.Tensor[[N, N], pl.FP32], w: pl.Tensor[[N, N], pl.FP32], out: pl.Out[pl.Tensor[[4 * N, N], pl.FP32]]
    ) -> pl.Tensor[[4 * N, N], pl.FP32]:
        out = self.steps(x, w, out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def deadlock(self, x: pl.Tensor[[N, N], pl.FP32], w: pl.Tensor[[N, N], pl.FP32]):
        self.stuck(x, w)
