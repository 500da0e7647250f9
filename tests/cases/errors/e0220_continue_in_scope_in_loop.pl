# E0220: `continue` inside a `with` region outside any loop; a `break` in a sequential loop
# around a region is fine (the last loop).
import pypto.language as pl


@pl.jit
def entry(x: pl.Tensor, out: pl.Out[pl.Tensor], n: pl.INDEX):
    with pl.at(level=pl.Level.CORE_GROUP):
        t = pl.load(x, [0, 0], [64, 64])
        pl.store(t, [0, 0], out)
        continue
    for i in pl.range(8):
        if i > n:
            break
    return out
