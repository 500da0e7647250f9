# A factory used across files: `BuildResidual` is defined in `shapes.pl`; the call in the
# `__main__` block chooses the program compiled (the note points at both).
import pypto.language as pl
from .shapes import BuildResidual

HIDDEN = 64

if __name__ == "__main__":
    program = BuildResidual(rows=48, cols=HIDDEN)
    print(program)
