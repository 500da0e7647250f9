# Closing three blocks at once, then two, then all of them at the end of the file.
import pypto.language as pl


@pl.jit
def nested(x: pl.Tensor, n: pl.INDEX):
    for i in pl.range(4):
        if i > 1:
            while n > 0:
                n = n - 1
    for j in pl.range(2):
        with pl.scope():
            if j == 0:
                pass
        n = n + j
    if n > 0:
        if n > 1:
            if n > 2:
                if n > 3:
                    n = 0
