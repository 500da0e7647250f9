# The attribute spelling of the communication context: `data.comm` of a window-bound
# DistributedTensor is `pld.get_comm_ctx(data)`, and `.rank` / `.nranks` of a CommCtx are
# `pld.rank(ctx)` / `pld.nranks(ctx)`; `pld.comm_ctx.rank(ctx)` / `pld.comm_ctx.nranks(ctx)`
# are older spellings of the same ops.
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class CommAttributes:
    @pl.function
    def peer_of(self, buf: pld.DistributedTensor[[32], pl.FP32]) -> pl.Scalar[pl.INT32]:
        nxt = (buf.comm.rank + 1) % buf.comm.nranks
        return nxt

    @pl.function
    def spelled_out(self, buf: pld.DistributedTensor[[32], pl.FP32]) -> pl.Scalar[pl.INT32]:
        ctx = buf.comm
        total = pld.comm_ctx.rank(ctx) + pld.comm_ctx.nranks(ctx) + ctx.rank
        return total
