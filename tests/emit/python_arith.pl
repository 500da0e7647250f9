# Scalar arithmetic of orchestration code as Python (and `plc run`) computes it (issue 15,
# items 9 and 12): `base ** 39` is exact (it was rounded through double), `//` and `%`
# round toward negative infinity on negative numbers (they rounded as C does), shifts
# are Python's (`-1 << 63` fits in 64 bits). A value compared with itself (`same != n`,
# after the alias `same = n`) is no C++ warning (-Wtautological-compare; random program
# seed 152500). The loop count depends on each, so the
# harness prints what `plc run` prints only when all agree (tests/compile.rs runs it with
# base=3, n=-7, d=2). `pl.max`/`pl.min` are PyPTO's scalar helpers.
import pypto.language as pl


@pl.jit
def entry(
    base: pl.Scalar[pl.INDEX],
    n: pl.Scalar[pl.INDEX],
    d: pl.Scalar[pl.INDEX],
    x: pl.Tensor[[64], pl.FP32],
    out: pl.InOut[pl.Tensor[[64], pl.FP32]],
):
    p = base ** 39
    q = n // d
    r = n % d
    s = (n << 3) >> 2
    w = (n // n - 2) << 63
    same = n
    if same != n or same < n:
        w = w + 1
    count = p % 7 + (q + 10) + (r + 1) + (s + 20) % 3 + (w >> 62) + 2
    # The scalar helpers `pl.max`/`pl.min`: max + min of two values is their sum.
    count = count + pl.max(q, r) + pl.min(q, r) - q - r
    for i in pl.range(count):
        with pl.at(level=pl.Level.CORE_GROUP):
            t = pl.load(x, [0], [64])
            acc = pl.load(out, [0], [64])
            pl.store(pl.add(acc, t), [0], out)
    return out
