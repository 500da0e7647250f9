# Grouping scopes. `for i in pl.spmd(n)` and `with pl.spmd(n) as tid` launch one body on
# n blocks, each block reading its own index; `pl.cluster()` co-schedules the device work
# inside it; `pl.scope()` and `pl.manual_scope()` are runtime scopes around task
# submissions (a hand-placed `pl.scope()` needs `auto_scope=False`). The manual scope
# holds only work that reads the inputs, so it needs no inferred edges.
import pypto.language as pl

BLOCKS = 4
ROWS = 128
COLS = 128
TOTAL = BLOCKS * ROWS


@pl.program
class BlockParallel:
    @pl.function(type=pl.FunctionType.Orchestration, auto_scope=False)
    def main(
        self,
        a: pl.Tensor[[TOTAL, COLS], pl.FP32],
        b: pl.Tensor[[TOTAL, COLS], pl.FP32],
        summed: pl.Out[pl.Tensor[[TOTAL, COLS], pl.FP32]],
        scaled: pl.Out[pl.Tensor[[TOTAL, COLS], pl.FP32]],
        mixed: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
    ) -> tuple[
        pl.Tensor[[TOTAL, COLS], pl.FP32],
        pl.Tensor[[TOTAL, COLS], pl.FP32],
        pl.Tensor[[ROWS, COLS], pl.FP32],
    ]:
        with pl.scope():
            for i in pl.spmd(BLOCKS):
                offset = i * ROWS
                tile_a: pl.Tile[[ROWS, COLS], pl.FP32] = pl.load(a, [offset, 0], [ROWS, COLS])
                tile_b: pl.Tile[[ROWS, COLS], pl.FP32] = pl.load(b, [offset, 0], [ROWS, COLS])
                summed = pl.store(pl.add(tile_a, tile_b), [offset, 0], summed)
        with pl.manual_scope(name_hint="scale_inputs"):
            with pl.spmd(BLOCKS, name_hint="scale_kernel") as scale_tid:
                blk = pl.tile.get_block_idx()
                t = pl.load(a, [blk * ROWS, 0], [ROWS, COLS])
                scaled = pl.store(pl.mul(t, 0.25), [blk * ROWS, 0], scaled)
        with pl.cluster():
            with pl.at(level=pl.Level.CORE_GROUP, name_hint="mix_first_block"):
                ta = pl.load(a, [0, 0], [ROWS, COLS])
                tb = pl.load(b, [0, 0], [ROWS, COLS])
                pl.store(pl.sub(ta, tb), [0, 0], mixed)
        return summed, scaled, mixed
