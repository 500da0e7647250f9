# Helper module of the import cases (a `.py` file, so the test harness does not run it as
# a case of its own): constants, and one name bound by host code.
import pypto.language as pl

ROWS = 64
COLS = 64
SCALE = float(input())
