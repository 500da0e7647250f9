# `ci`/`arange` of several rows (issue 11): PyPTO types and lowers it, and emits one TCI for
# the whole tile, but PTO-ISA's TCI fills one row (`static_assert(TileData::Rows == 1)` in
# its CPU simulator and its a2a3 form), so the real toolchain does not build it. plc checks
# the program and refuses to run or compile it, naming the reason (tests/run.rs); a
# one-row sequence reshaped (`ids`) is the form that runs.
import pypto.language as pl


@pl.jit.incore
def count(out: pl.Out[pl.Tensor[[2, 8], pl.INT32]], ids: pl.Out[pl.Tensor[[2, 8], pl.INT32]]):
    ids = pl.store(pl.tile.reshape(pl.tile.arange(0, [1, 16], dtype=pl.INT32), [2, 8]), [0, 0], ids)
    out = pl.store(pl.tile.arange(0, [2, 8], dtype=pl.INT32), [0, 0], out)
    return out, ids


@pl.jit
def entry(out: pl.Out[pl.Tensor[[2, 8], pl.INT32]], ids: pl.Out[pl.Tensor[[2, 8], pl.INT32]]):
    out, ids = count(out, ids)
    return out, ids
