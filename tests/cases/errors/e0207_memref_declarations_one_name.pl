# E0207: module-level pl.MemRef() declarations used in Tile annotations name their
# allocation (a bare pl.MemRef() after its variable, pl.MemRef("x") after the literal); two
# separate declarations that resolve to one name are refused, as PyPTO's type resolver
# refuses them (ops.md §4.2 `_declared_alloc_name`). Using one declaration twice is fine.
import pypto.language as pl

ping = pl.MemRef()
pong = pl.MemRef()
also_ping = pl.MemRef("ping")


@pl.program
class OneName:
    @pl.function
    def main(
        self,
        a: pl.Tensor[[64, 64], pl.FP32],
        out: pl.Out[pl.Tensor[[64, 64], pl.FP32]],
    ) -> pl.Tensor[[64, 64], pl.FP32]:
        t0: pl.Tile[[64, 64], pl.FP32, ping, pl.Mem.Vec] = pl.load(a, [0, 0], [64, 64])
        t1: pl.Tile[[64, 64], pl.FP32, pong, pl.Mem.Vec] = pl.exp(t0)
        t2: pl.Tile[[64, 64], pl.FP32, ping, pl.Mem.Vec] = pl.exp(t1)
        t3: pl.Tile[[64, 64], pl.FP32, also_ping, pl.Mem.Vec] = pl.exp(t2)
        return pl.store(t3, [0, 0], out)
