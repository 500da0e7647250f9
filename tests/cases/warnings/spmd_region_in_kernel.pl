# A `pl.spmd(n)` region inside a kernel (InCore, AIC, AIV) stays where it is: PyPTO's
# parser accepts it and its outlining passes skip kernels, so neither
# OutlineIncoreScopes nor OutlineClusterScopes reports E0412. Both forms: the `with`
# region and the `for` loop (whose body is a core-group region with the block index).
import pypto.language as pl


@pl.program
class KernelBlocks:
    @pl.function(type=pl.FunctionType.InCore)
    def doubled(
        self,
        src: pl.Tensor[[8, 32], pl.FP32],
        dst: pl.Out[pl.Tensor[[8, 32], pl.FP32]],
    ) -> pl.Tensor[[8, 32], pl.FP32]:
        for blk in pl.spmd(2, name_hint="halves"):
            part = pl.load(src, [blk * 4, 0], [4, 32])
            dst = pl.store(pl.add(part, part), [blk * 4, 0], dst)
        return dst

    @pl.function(type=pl.FunctionType.AIV)
    def copied(
        self,
        src: pl.Tensor[[8, 32], pl.FP32],
        dst: pl.Out[pl.Tensor[[8, 32], pl.FP32]],
    ) -> pl.Tensor[[8, 32], pl.FP32]:
        with pl.spmd(1):
            blk = pl.tile.get_block_idx()
            whole = pl.load(src, [blk * 8, 0], [8, 32])
            dst = pl.store(whole, [blk * 8, 0], dst)
        return dst
