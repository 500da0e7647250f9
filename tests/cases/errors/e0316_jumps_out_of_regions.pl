# A region becomes a function of its own, so control cannot leave it early: a `return`
# inside a region, and a `break`/`continue` of a loop around the region, are E0316. A
# loop inside the region may use them.
import pypto.language as pl


@pl.jit
def entry(x: pl.Tensor[[64, 64], pl.FP32], y: pl.Out[pl.Tensor[[64, 64], pl.FP32]], n: pl.Scalar[pl.INDEX]):
    for i in pl.range(4):
        with pl.graph("layer"):
            if i == n:
                break
            with pl.at(level=pl.Level.CORE_GROUP):
                t = pl.load(x, [0, 0], [64, 64])
                pl.store(t, [0, 0], y)
        with pl.at(level=pl.Level.CORE_GROUP):
            for j in pl.range(2):
                if j == 1:
                    continue
                u = pl.load(x, [0, 0], [64, 64])
                pl.store(u, [0, 0], y)
            if i == 3:
                continue
    with pl.graph("tail"):
        return y
