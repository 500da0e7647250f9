# A DistributedTensor has one attribute, `.comm` (its communication context), and a
# CommCtx two, `.rank` and `.nranks`; `.comm` of a plain tensor is not a pl value.
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class BadAttributes:
    @pl.function
    def worker(self, buf: pld.DistributedTensor[[32], pl.FP32], x: pl.Tensor[[32], pl.FP32]) -> pl.Scalar[pl.INT32]:
        a = buf.size
        b = buf.comm.world
        c = x.comm.rank
        return a
