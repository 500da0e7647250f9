# E0217: PyPTO's checks of the gather, scatter and batch matmul rows (issue 11, ops.md §2):
# batch matmul K extents and batch axes, the accumulator's dtype, gatherb's UINT32 offsets
# in groups of 8, mgather's modes and row-mode index, mscatter's index shape, gather_row's
# literal window and dtypes, paged_gather's bounds and is_trans/space pairing.
import pypto.language as pl


@pl.jit
def entry(
    x: pl.Tensor[[16, 16], pl.FP32],
    h: pl.Tensor[[16, 16], pl.FP16],
    i: pl.Tensor[[1, 4], pl.INT32],
    out: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
):
    with pl.at(level=pl.Level.CORE_GROUP):
        a = pl.load(x, [0, 0, 0], [2, 4, 8])
        b = pl.load(x, [0, 0, 0], [3, 8, 4])
        p = pl.batch_matmul(a, b)
        c = pl.load(x, [0, 0, 0], [2, 8, 4])
        acc = pl.tile.create([2, 4, 4], dtype=pl.FP16)
        q = pl.tile.batch_matmul_acc(acc, a, c)
        t = pl.load(x, [0, 0], [16, 16])
        o = pl.tile.ci(0, [2, 4], dtype=pl.UINT32)
        g = pl.gatherb(t, o)
        k = pl.tile.ci(0, [2, 4], dtype=pl.INT32)
        m = pl.mgather(x, k)
        n = pl.mgather(x, k, coalesce="cols")
        s = pl.mscatter(t, k, out)
        r = pl.gather_row(t, h, [0, 0], [0, 0], [1, 16])
        w = pl.gather_row(t, x, [0, 0], [0, 0], [1, 16, 1])
        pg = pl.paged_gather(x, i, i, 4, 16, 8, col_off=4)
        pt = pl.paged_gather(x, i, i, 4, 8, 8, is_trans=True, space=pl.MemorySpace.Vec)
        pl.store(t, [0, 0], out)
    return out


@pl.program
class MoreChecks:
    @pl.function(type=pl.FunctionType.InCore)
    def main(self, src: pl.Tensor[[256, 128], pl.BF16]) -> pl.Tensor[[16, 128], pl.BF16]:
        pl.tile.create([16, 128], dtype=pl.BF16, target_memory=pl.Mem.Vec, transpose=True)
        kv = pl.create_l1([16, 128], pl.BF16)
        kv = pl.gather_row(kv, src, [0, 0], [0, 0], [4, 128], valid_shape=[5, 128])
        return kv
