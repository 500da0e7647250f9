# The body of `with pl.spmd(n)` runs once per block (E0319): it reads its block index
# (`pl.tile.get_block_idx()` or the top-level `pl.get_block_idx()`, anywhere in the body,
# nested regions and call arguments included) or dispatches exactly one kernel. A body
# that does neither would run identical work in every block; two dispatches are refused.
# The loop form `for i in pl.spmd(n)` binds the index itself and is not checked.
import pypto.language as pl


@pl.program
class Blocks:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        a: pl.Tensor[[512, 128], pl.FP32],
        out: pl.Out[pl.Tensor[[512, 128], pl.FP32]],
    ) -> pl.Tensor[[512, 128], pl.FP32]:
        i = pl.tile.get_block_idx()
        t = pl.load(a, [i * 128, 0], [128, 128])
        out = pl.store(t, [i * 128, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def accepted(
        self,
        a: pl.Tensor[[512, 128], pl.FP32],
        out: pl.Out[pl.Tensor[[512, 128], pl.FP32]],
    ) -> pl.Tensor[[512, 128], pl.FP32]:
        with pl.spmd(4):
            t = pl.load(a, [pl.get_block_idx() * 128, 0], [128, 128])
            out = pl.store(t, [pl.get_block_idx() * 128, 0], out)
        with pl.spmd(4, name_hint="nested"):
            with pl.at(level=pl.Level.CORE_GROUP):
                j = pl.tile.get_block_idx()
                out = pl.store(pl.load(a, [j * 128, 0], [128, 128]), [j * 128, 0], out)
        with pl.spmd(4):
            out = self.kernel(a, out)
        for k in pl.spmd(4):
            out = pl.store(pl.load(a, [0, 0], [128, 128]), [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def refused(
        self,
        a: pl.Tensor[[512, 128], pl.FP32],
        out: pl.Out[pl.Tensor[[512, 128], pl.FP32]],
    ) -> pl.Tensor[[512, 128], pl.FP32]:
        with pl.spmd(4):
            t = pl.load(a, [0, 0], [128, 128])
            out = pl.store(pl.add(t, t), [0, 0], out)
        with pl.spmd(4) as tid:
            out = pl.store(pl.load(a, [0, 0], [128, 128]), [0, 0], out)
        with pl.spmd(4):
            out = self.kernel(a, out)
            out = self.kernel(a, out)
        return out
