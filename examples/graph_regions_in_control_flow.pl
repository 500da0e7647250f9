# Graph regions under control flow. Each region stores into a tensor that lives outside
# the loop or branch around it; after OutlineGraphScopes the call binds a new version of
# that tensor, which is carried out of every enclosing loop (a new iter arg and return
# variable) and `if` (a new return variable, each branch yielding its own version, a
# missing `else` created), so the program stays in SSA form.
import pypto.language as pl

ROWS = 32
COLS = 64
STEPS = 3


@pl.jit.incore
def bump(src: pl.Tensor[[ROWS, COLS], pl.FP32], dst: pl.InOut[pl.Tensor[[ROWS, COLS], pl.FP32]]):
    a = pl.load(src, [0, 0], [ROWS, COLS])
    b = pl.load(dst, [0, 0], [ROWS, COLS])
    pl.store(pl.add(a, b), [0, 0], dst)
    return dst


@pl.jit
def entry(
    x: pl.Tensor[[ROWS, COLS], pl.FP32],
    acc: pl.InOut[pl.Tensor[[ROWS, COLS], pl.FP32]],
    side: pl.InOut[pl.Tensor[[ROWS, COLS], pl.FP32]],
    n: pl.Scalar[pl.INDEX],
):
    # A region in a branch without an `else`.
    if n > 2:
        with pl.graph("when_large"):
            with pl.at(level=pl.Level.CORE_GROUP):
                t = pl.load(x, [0, 0], [ROWS, COLS])
                pl.store(t, [0, 0], side)
    # A region two loops deep.
    for i in pl.range(STEPS):
        for j in pl.range(STEPS):
            with pl.graph("inner_step"):
                with pl.at(level=pl.Level.CORE_GROUP):
                    u = pl.load(acc, [0, 0], [ROWS, COLS])
                    v = pl.load(x, [0, 0], [ROWS, COLS])
                    pl.store(pl.add(u, v), [0, 0], acc)
    # A region in each branch of an `if` inside a loop.
    for k in pl.range(STEPS):
        if k == 0:
            with pl.graph("first_round"):
                with pl.at(level=pl.Level.CORE_GROUP):
                    w = pl.load(x, [0, 0], [ROWS, COLS])
                    pl.store(w, [0, 0], acc)
        else:
            with pl.graph("later_round"):
                with pl.at(level=pl.Level.CORE_GROUP):
                    w2 = pl.load(acc, [0, 0], [ROWS, COLS])
                    pl.store(pl.mul(w2, 2.0), [0, 0], acc)
    # A region in a while loop that counts down.
    m = n
    while m > 0:
        with pl.graph("drain"):
            with pl.at(level=pl.Level.CORE_GROUP):
                z = pl.load(side, [0, 0], [ROWS, COLS])
                pl.store(pl.add(z, z), [0, 0], side)
        m = m - 1
    return acc, side
