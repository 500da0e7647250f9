# E0223: pl.submit / pl.spmd_submit stand only as the value of an assignment
# (`out, tid = ...`, or `res = ...` binding the whole tuple), as PyPTO requires.
import pypto.language as pl


@pl.program
class Launches:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, x: pl.Tensor[[64], pl.FP32], out: pl.Out[pl.Tensor[[64], pl.FP32]]) -> pl.Tensor[[64], pl.FP32]:
        t = pl.load(x, [0], [64])
        out = pl.store(t, [0], out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[64], pl.FP32], out: pl.Out[pl.Tensor[[64], pl.FP32]]) -> pl.Tensor[[64], pl.FP32]:
        with pl.manual_scope():
            res = pl.submit(self.k, x, out)
            out, tid = pl.spmd_submit(self.k, x, out, core_num=2)
            pl.submit(self.k, x, out)
            pl.spmd_submit(self.k, x, out, core_num=4)
        return out
