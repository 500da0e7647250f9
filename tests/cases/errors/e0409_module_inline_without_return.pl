# A module-level `@pl.inline` function must return a value, even when a caller uses it as a
# statement: PyPTO's parser raises "Inline function 'f' has no return value" at each call.
import pypto.language as pl


@pl.inline
def touch(x: pl.Tensor[[16, 16], pl.FP32], out: pl.Tensor[[16, 16], pl.FP32]):
    out = pl.assemble(out, x, [0, 0])


@pl.inline
def double(x: pl.Tensor[[16, 16], pl.FP32]):
    return pl.add(x, x)


@pl.program
class Calls:
    @pl.function(type=pl.FunctionType.Opaque)
    def main(self, x: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]):
        touch(x, out)
        y = double(x)
        out = pl.assemble(out, y, [0, 0])
        return out
