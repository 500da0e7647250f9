# E0203: the keywords of the element ops are PyPTO's parameter names: `tensor=` for
# pl.tensor.dim/read/write/view and `tile=` for pl.tile.read/write (as in
# `pl.tensor.dim(tensor=x, axis=0)`); another name is refused.
import pypto.language as pl

ROWS = pl.dynamic("ROWS")


@pl.program
class ElementKeywords:
    @pl.function(type=pl.FunctionType.Orchestration)
    def extent(self, x: pl.Tensor[[ROWS, 16], pl.FP32]) -> pl.Tensor[[ROWS, 16], pl.FP32]:
        n = pl.tensor.dim(tensor=x, axis=0)
        first = pl.tensor.read(tensor=x, indices=[0, 0])
        x = pl.tensor.write(tensor=x, indices=[n - 1, 0], value=first)
        v = pl.tensor.view(tensor=x, shape=[ROWS, 16])
        m = pl.tensor.dim(t=x, axis=1)
        return v

    @pl.function(type=pl.FunctionType.InCore)
    def element(self, x: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        t = pl.load(x, [0, 0], [16, 16])
        corner = pl.tile.read(tile=t, indices=[0, 0])
        t = pl.tile.write(tile=t, indices=[15, 15], value=corner)
        out = pl.store(t, [0, 0], out)
        return out
