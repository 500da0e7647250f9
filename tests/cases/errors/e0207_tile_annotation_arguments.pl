# E0207: the trailing items of a Tile annotation, as PyPTO's type resolver checks them
# (ops.md §4.2 `_resolve_tile_annotation_args`, `resolve_memref`, `_resolve_memref_slot_ref`,
# `_resolve_slots_kwarg`): at most one memory space, memref and pl.TileView; no tensor
# layout; a memref needs a memory space; a declared allocation is named by a non-empty
# string literal; pl.MemRef otherwise takes (base, byte_offset, size); a slot subscript
# needs `slots=`, a positive integer literal, and stays below it.
import pypto.language as pl

NAME = "scratch"


@pl.program
class TileAnnotationArguments:
    @pl.function
    def main(self, a: pl.Tensor[[64, 64], pl.FP32], i: pl.Scalar[pl.INDEX]) -> pl.Tensor[[64, 64], pl.FP32]:
        t0: pl.Tile[[64, 64], pl.FP32, pl.NZ, pl.Mem.Vec] = pl.load(a, [0, 0], [64, 64])
        t1: pl.Tile[[64, 64], pl.FP32, pl.MemRef("x"), pl.MemRef("y"), pl.Mem.Vec] = pl.load(a, [0, 0], [64, 64])
        t2: pl.Tile[[64, 64], pl.FP32, pl.MemRef(NAME), pl.Mem.Vec] = pl.load(a, [0, 0], [64, 64])
        t3: pl.Tile[[64, 64], pl.FP32, pl.MemRef(""), pl.Mem.Vec] = pl.load(a, [0, 0], [64, 64])
        t4: pl.Tile[[64, 64], pl.FP32, pl.MemRef("a", 1), pl.Mem.Vec] = pl.load(a, [0, 0], [64, 64])
        t5: pl.Tile[[64, 64], pl.FP32, pl.TileView(), pl.TileView(), pl.Mem.Vec] = pl.load(a, [0, 0], [64, 64])
        t6: pl.Tile[[64, 64], pl.FP32, 3] = pl.load(a, [0, 0], [64, 64])
        t7: pl.Tile[[64, 64], pl.FP32, pl.MemRef("scratch")] = pl.load(a, [0, 0], [64, 64])
        t8: pl.Tile[[64, 64], pl.FP32, pl.Mem.Vec, pl.Mem.Mat] = pl.load(a, [0, 0], [64, 64])
        t9: pl.Tile[[64, 64], pl.FP32, pl.MemRef("r", slots=3)[3], pl.Mem.Vec] = pl.load(a, [0, 0], [64, 64])
        u0: pl.Tile[[64, 64], pl.FP32, pl.MemRef("r")[0], pl.Mem.Vec] = pl.load(a, [0, 0], [64, 64])
        u1: pl.Tile[[64, 64], pl.FP32, pl.MemRef("r", slots=0)[0], pl.Mem.Vec] = pl.load(a, [0, 0], [64, 64])
        u2: pl.Tensor[[64, 64], pl.FP32, pl.MemRef("mem_ddr", 0)] = a
        # Accepted: a slot of a multi-slot declaration, by constant or run-time index, and
        # the three-argument placement.
        ok0: pl.Tile[[64, 64], pl.FP32, pl.MemRef("ring", slots=2)[1], pl.Mem.Vec] = pl.load(a, [0, 0], [64, 64])
        ok1: pl.Tile[[64, 64], pl.FP32, pl.Mem.Vec, pl.MemRef("ring", slots=2)[i]] = pl.load(a, [0, 0], [64, 64])
        ok2: pl.Tile[[64, 64], pl.FP32, pl.MemRef("mem_vec", 0, 16384), pl.Mem.Vec] = pl.load(a, [0, 0], [64, 64])
        return a
