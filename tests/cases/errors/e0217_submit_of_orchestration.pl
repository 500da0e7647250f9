# E0217: pl.submit launches a task; an Orchestration function, or an Opaque one, does not
# run as one. An Opaque function marked attrs={"auto_tile": True} does: the AutoTile
# pass makes a kernel schedule of it.
import pypto.language as pl


@pl.program
class Prog:
    @pl.function(type=pl.FunctionType.Orchestration)
    def helper(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        return x

    @pl.function
    def plain(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        y: pl.Tensor[[64], pl.FP32] = pl.exp(x)
        return y

    @pl.function(attrs={"auto_tile": True})
    def tiled(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        y: pl.Tensor[[64], pl.FP32] = pl.exp(x)
        return y

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        y, tid = pl.submit(self.helper, x)
        with pl.manual_scope():
            z, ztid = pl.submit(self.plain, y)
            w, wtid = pl.submit(self.tiled, z)
        return w
