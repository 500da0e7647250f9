# E0410: a scalar reassigned in a device region inside a loop and read after the loop: the
# loop carry is live, so the value would have to leave the region (a dead carry is dropped,
# see examples/dead_scalar_carry.pl).
import pypto.language as pl


@pl.jit
def main(x: pl.Tensor[[64], pl.FP32], out: pl.Out[pl.Tensor[[64], pl.FP32]], start: pl.Scalar[pl.INDEX]):
    last = start
    for b in pl.parallel(0, 4):
        with pl.at(level=pl.Level.CORE_GROUP):
            for i in pl.range(2):
                last = b + i
                t = pl.load(x, [0], [64])
                pl.store(t, [0], out)
    m = last * 2
    return out
