# E0224: an @pl.program class whose only method has no @pl.function decorator (PyPTO
# ignores undecorated methods, so the class has no pl function).
import pypto.language as pl


@pl.program
class Helpers:
    def scale(self, x):
        return x


@pl.jit
def entry(x: pl.Tensor):
    return x
