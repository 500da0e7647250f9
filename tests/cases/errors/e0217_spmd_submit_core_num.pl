# pl.spmd_submit(core_num=...): an integer (E0217), positive when constant (E0218).
import pypto.language as pl


@pl.program
class Cores:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, x: pl.Tensor[[64], pl.FP32], out: pl.Out[pl.Tensor[[64], pl.FP32]]) -> pl.Tensor[[64], pl.FP32]:
        t = pl.load(x, [0], [64])
        out = pl.store(t, [0], out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[64], pl.FP32], out: pl.Out[pl.Tensor[[64], pl.FP32]]) -> pl.Tensor[[64], pl.FP32]:
        with pl.manual_scope():
            out, a = pl.spmd_submit(self.k, x, out, core_num=2.5)
            out, b = pl.spmd_submit(self.k, x, out, core_num=0)
            out, c = pl.spmd_submit(self.k, x, out, core_num=-3)
            out, d = pl.spmd_submit(self.k, x, out, core_num=4)
        return out
