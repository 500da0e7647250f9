# Implicit line joining inside brackets (nested, with comments and blank lines inside),
# and explicit joining with a backslash, also inside a block and before an operator.
import pypto.language as pl

SHAPE = [
    64,   # rows

    128,  # columns
]
TOTAL = 1 + \
    2 + \
    3
DEEP = ((((1 +
   2) *
        3) -
  4)
)


@pl.jit
def joined(
    x: pl.Tensor,  # the input
    out: pl.Out[pl.Tensor],
):
    with pl.at(
            level=pl.Level.CORE_GROUP,
        name_hint="joined",
    ):
        t = pl.load(x,
                    [0,
                     0],
      [64, 128])
        u = pl.add(t, \
                   t)
        pl.store(
            u, [0, 0], out
        )
    if TOTAL > 1 and \
            TOTAL < 10:
        pass
    return out
