# E0224: an @pl.program class with no @pl.function methods.
import pypto.language as pl


@pl.program
class Empty:
    """A program class that holds nothing."""


@pl.jit
def entry(x: pl.Tensor):
    return x
