# The printed form of PyPTO's memory planning, as the Expected programs of its memory pass
# tests write it: `pl.tile.alloc` gives a buffer's address (`pl.Ptr`), and `pl.MemRef(...)`
# in an annotation places a tensor or tile in it. plc checks such a program; it does not
# run or compile it (on the CPU every tile has storage of its own: docs/kernels.md).
import pypto.language as pl


@pl.program
class Planned:
    @pl.function(type=pl.FunctionType.InCore)
    def planned(
        self,
        x: pl.Tensor[[16, 32], pl.FP32, pl.MemRef("mem_ddr_0", 0, 2048)],
        y: pl.Out[pl.Tensor[[16, 32], pl.FP32, pl.MemRef("mem_ddr_1", 0, 2048)]],
    ) -> pl.Tensor[[16, 32], pl.FP32]:
        # One 2048-byte buffer of the vector memory holds both tiles, the second reusing
        # the first's place.
        buf: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 2048)
        # The tensor-level spelling gives the address of a buffer in global memory.
        gm: pl.Ptr = pl.tensor.alloc(pl.Mem.DDR, 2048)
        t: pl.Tile[[16, 32], pl.FP32, pl.MemRef(buf, 0, 2048), pl.Mem.Vec] = pl.tile.load(x, [0, 0], [16, 32])
        u: pl.Tile[[16, 32], pl.FP32, pl.MemRef(buf, 0, 2048), pl.Mem.Vec] = pl.tile.adds(t, 1.0)
        y = pl.tile.store(u, [0, 0], y)
        return y
