# Decorators with and without arguments, over several lines, with trailing commas;
# parameters with annotations, defaults and a trailing comma; return annotations.
import pypto.language as pl

TILE = 64


@pl.jit(auto_scope=False)
def entry(x: pl.Tensor, n: pl.INDEX = 4, scale: pl.FP32 = 1.0,):
    return x


@pl.jit.incore(level=pl.Level.CORE_GROUP)
def kernel(x: pl.Tensor, y: pl.Out[pl.Tensor] = None) -> pl.Tensor:
    return y


@pl.jit.inline(auto_scope=True)
def helper(a: pl.Tensor,
           b: pl.InOut[pl.Tensor]):
    return b


@pl.jit.opaque()
def opaque(a: pl.Tensor): return a


@pl.jit.graph
def layer(a: pl.InOut[pl.Tensor], i: pl.Scalar[pl.INDEX]): return a


@pl.program(strict_ssa=True)
class Prog():
    @pl.function(
        type=pl.FunctionType.InCore,
        strict_ssa=True,
    )
    def k(self, t: pl.Tile[[TILE, TILE], pl.FP32, pl.Mem.Vec],
          u: pl.Tensor[[TILE], pl.BF16, pl.ND],) -> pl.Tile[[TILE, TILE], pl.FP32]:
        return t

    @pl.function(type=FunctionType.Graph, level=None, role=None)
    def g(self, a: pl.InOut[pl.Tensor[[TILE], pl.FP32]]) -> tuple[pl.Tensor[[TILE], pl.FP32], pl.Scalar[pl.INDEX]]:
        return a, 0

    @pl.function
    def plain(self, a: pl.Tensor[[TILE], pl.FP32]) -> pl.Tuple[pl.Tensor[[TILE], pl.FP32]]:
        return a
