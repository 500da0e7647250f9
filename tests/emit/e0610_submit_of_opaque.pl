# `pl.submit` of an Opaque function marked "auto_tile" checks (PyPTO's AutoTile pass makes
# it a kernel later), but plc has no such pass: `plc compile` refuses each launch once, E0610
# at the call; the launch's results (the value and the task id) are not errors of their own.
import pypto.language as pl


@pl.program
class Prog:
    @pl.function(attrs={"auto_tile": True})
    def tiled(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        y: pl.Tensor[[64], pl.FP32] = pl.exp(x)
        return y

    @pl.function(type=pl.FunctionType.AIV)
    def kern(self, x: pl.Tensor[[64], pl.FP32], out: pl.Out[pl.Tensor[[64], pl.FP32]]) -> pl.Tensor[[64], pl.FP32]:
        t = pl.load(x, [0], [64])
        return pl.store(t, [0], out)

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[64], pl.FP32], out: pl.Out[pl.Tensor[[64], pl.FP32]]) -> pl.Tensor[[64], pl.FP32]:
        with pl.manual_scope():
            z, ztid = pl.submit(self.tiled, x)
            w, wtid = pl.submit(self.kern, z, out, deps=[ztid])
        return w
