# E0007: brackets still open at the end of the file: the innermost is reported, the
# outer ones are labelled.
import pypto.language as pl


@pl.jit
def f(x: pl.Tensor):
    t = pl.load(x, [0, 0], [64, (128,
