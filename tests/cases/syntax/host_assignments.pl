# Module-level assignments that Python allows but pl constants do not use are host code.
import pypto.language as pl

A = 1 < B < 3
C = +3
D = [*A, 1]
E = max(*A)
F: int = 3
G = H = 3
S = [1, 2, 3][1:]
OK = (1 < 2) and -3 < 4
KEPT = 128 if OK else 64
NESTED = 32 if OK else (128 if KEPT >= 64 else 256)
RUN = load() if OK else 64
