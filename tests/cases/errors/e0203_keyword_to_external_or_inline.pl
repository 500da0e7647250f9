# E0203: a module-level @pl.function (PyPTO's external function) or @pl.inline function
# takes its arguments by position; PyPTO's parser refuses a keyword argument on a bare-name
# call of either ("Function 'f' does not accept keyword argument 'k'"), one error per
# keyword. A program method called as `self.f(...)` takes the keywords it declares. The
# error in `kernel`'s body is reported once, though `kernel` is lowered twice (at module
# level and as the copy in Prog's program).
import pypto.language as pl

N = 64


@pl.inline
def scaled(t: pl.Tile[[N], pl.FP32]) -> pl.Tile[[N], pl.FP32]:
    r = pl.mul(t, 2.0)
    return r


@pl.function(type=pl.FunctionType.InCore)
def kernel(x: pl.Tensor[[N], pl.FP32], out: pl.Out[pl.Tensor[[N], pl.FP32]]) -> pl.Tensor[[N], pl.FP32]:
    t = pl.load(x, [0], [N])
    u = scaled(t=t)
    out = pl.store(u, [0], out)
    return out


@pl.program
class Prog:
    @pl.function(type=pl.FunctionType.InCore)
    def own(self, x: pl.Tensor[[N], pl.FP32], out: pl.Out[pl.Tensor[[N], pl.FP32]]) -> pl.Tensor[[N], pl.FP32]:
        t = pl.load(x, [0], [N])
        out = pl.store(t, [0], out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[N], pl.FP32], out: pl.Out[pl.Tensor[[N], pl.FP32]]) -> pl.Tensor[[N], pl.FP32]:
        out = self.own(x=x, out=out)
        out = kernel(x, out=out)
        return out
