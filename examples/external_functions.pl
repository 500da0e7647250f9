# A program class calling functions defined outside it, as PyPTO's tests write them
# (tests/ut/language/parser/test_decorator.py): a module-level InCore kernel, which
# becomes a function of the program that calls it (PyPTO's external function); `@pl.inline`
# helpers, spliced into their callers, one calling the other and one branching on the
# loop index; a name bound to a function (`kernel_alias = scale_kernel` calls
# `scale_kernel`); and module constants read in annotations and bodies.
import pypto.language as pl

ROWS = 64
COLS = 64
SCALE = 3.0
STEPS = 4
HALF = 2


@pl.inline
def scaled(t: pl.Tile[[ROWS, COLS], pl.FP32]) -> pl.Tile[[ROWS, COLS], pl.FP32]:
    r = pl.mul(t, SCALE)
    return r


@pl.inline
def step(a: pl.Tile[[ROWS, COLS], pl.FP32], t: pl.Tile[[ROWS, COLS], pl.FP32], i: pl.Scalar[pl.INDEX]):
    if i < HALF:
        b = pl.add(a, scaled(t))
    else:
        b = pl.sub(a, t)
    return b


@pl.function(type=pl.FunctionType.InCore)
def scale_kernel(
    x: pl.Tensor[[ROWS, COLS], pl.FP32],
    out: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
) -> pl.Tensor[[ROWS, COLS], pl.FP32]:
    t = pl.load(x, [0, 0], [ROWS, COLS])
    acc = t
    for i, (a,) in pl.range(STEPS, init_values=(acc,)):
        a2 = step(a, t, i)
        (acc,) = pl.yield_(a2)
    out = pl.store(acc, [0, 0], out)
    return out


kernel_alias = scale_kernel


@pl.program
class External:
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        x: pl.Tensor[[ROWS, COLS], pl.FP32],
        mid: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
        out: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
    ) -> pl.Tensor[[ROWS, COLS], pl.FP32]:
        mid = kernel_alias(x, mid)
        out = scale_kernel(mid, out)
        return out
