# Part of an import cycle (E0216): imports cycle_a, which imports this module again.
# Lowered alone, it reports the cycle at cycle_a's import.
import pypto.language as pl
from .cycle_a import double

WIDTH = 64
