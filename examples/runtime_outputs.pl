# Launches that leave their outputs to the runtime. `pl.submit` / `pl.spmd_submit` may pass a
# prefix of the kernel's parameters when every omitted one is a `pl.Out` tensor: the runtime
# allocates it, and the launch's result is that tensor. A launch of a kernel with several
# results may unpack them as a tuple before the task id: `(lo, hi), tid = pl.submit(...)`.
import pypto.language as pl

N = 64


@pl.program
class RuntimeOutputs:
    @pl.function(type=pl.FunctionType.InCore)
    def double(
        self,
        x: pl.Tensor[[N, N], pl.FP32],
        out: pl.Out[pl.Tensor[[N, N], pl.FP32]],
    ) -> pl.Tensor[[N, N], pl.FP32]:
        t = pl.load(x, [0, 0], [N, N])
        out = pl.store(pl.add(t, t), [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.InCore)
    def split(
        self,
        x: pl.Tensor[[N, N], pl.FP32],
        lo: pl.Out[pl.Tensor[[N, N], pl.FP32]],
        hi: pl.Out[pl.Tensor[[N, N], pl.FP32]],
        unused: pl.Out[pl.Tensor[[N, N], pl.FP32]],
    ) -> tuple[pl.Tensor[[N, N], pl.FP32], pl.Tensor[[N, N], pl.FP32]]:
        t = pl.load(x, [0, 0], [N, N])
        lo = pl.store(pl.mul(t, 0.5), [0, 0], lo)
        hi = pl.store(pl.add(t, 1.0), [0, 0], hi)
        return lo, hi

    @pl.function(type=pl.FunctionType.InCore)
    def combine(
        self,
        a: pl.Tensor[[N, N], pl.FP32],
        b: pl.Tensor[[N, N], pl.FP32],
        out: pl.Out[pl.Tensor[[N, N], pl.FP32]],
    ) -> pl.Tensor[[N, N], pl.FP32]:
        ta = pl.load(a, [0, 0], [N, N])
        tb = pl.load(b, [0, 0], [N, N])
        out = pl.store(pl.sub(ta, tb), [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        x: pl.Tensor[[N, N], pl.FP32],
        out: pl.Out[pl.Tensor[[N, N], pl.FP32]],
    ) -> pl.Tensor[[N, N], pl.FP32]:
        # `double`'s `out` is omitted: the runtime allocates it.
        doubled, first = pl.submit(self.double, x)
        # `split`'s three outputs are omitted; `unused` is allocated though nothing reads it.
        (lo, hi), second = pl.spmd_submit(self.split, doubled, core_num=2, deps=[first])
        out, _ = pl.submit(self.combine, lo, hi, out, deps=[second])
        return out
