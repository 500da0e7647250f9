# Inside brackets, line breaks and indentation mean nothing: no NEWLINE, INDENT or
# DEDENT is produced until the outermost bracket closes.
import pypto.language as pl


@pl.jit
def spans(x: pl.Tensor, out: pl.Out[pl.Tensor]):
    with pl.at(
                    level=pl.Level.CORE_GROUP,
            name_hint="deeper_then_shallower"):
        t = pl.load(
x,
                [0, 0],
            [16,
  16],
        )
        pl.store(t, [0,
0], out
)
        u = {
            "a": [
                (1,
                 2),
            ],
        }
    return out
