# E0217: the handles of pl.prefetch.* have types of their own (PrefetchAsyncContext,
# AsyncEvent, AsyncSession, also written as annotations): each op takes the handle it
# names, and async_prefetch's source is logically 1-D (at most one extent other than 1).
import pypto.language as pl


@pl.program
class Prefetch:
    @pl.function(type=pl.FunctionType.InCore)
    def good(self, x: pl.Tensor[[1, 1, 256], pl.FP32]) -> pl.Tensor[[1, 1, 256], pl.FP32]:
        ctx: pl.PrefetchAsyncContext = pl.prefetch.make_context()
        evt: pl.AsyncEvent = pl.prefetch.async_prefetch(x, ctx)
        session: pl.AsyncSession = pl.prefetch.session(ctx)
        done = pl.prefetch.wait(evt, session)
        return x

    @pl.function(type=pl.FunctionType.InCore)
    def bad(self, x: pl.Tensor[[256], pl.FP32], y: pl.Tensor[[4, 32], pl.FP32]) -> pl.Tensor[[256], pl.FP32]:
        ctx = pl.prefetch.make_context()
        evt = pl.prefetch.async_prefetch(x, ctx)
        pl.prefetch.async_prefetch(y, ctx)
        pl.prefetch.async_prefetch(x, evt)
        pl.prefetch.wait(evt, ctx)
        pl.prefetch.session(evt)
        return x
