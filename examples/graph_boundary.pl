# What LegalizeGraphBoundary does to a graph so that it replays correctly. The runtime
# records `layer` on its first call and replays it on the others, patching only the
# boundary (tensor addresses, scalar argument slots):
# - Step A: `base` is derived from the scalar parameter `idx` (through the alias `row`),
#   so every call site computes it and passes it as a new scalar parameter; `row` is gone.
# - Step C: `scratch` is allocated at the top of the graph, so it is allocated at each
#   call site instead and passed in as a new InOut parameter.
# - Step B: `band` is a view of the boundary tensor `w` whose window the call site can
#   compute, so it becomes a parameter too (with `w`'s direction, In); `part`, a view
#   whose window depends only on a constant-bound loop variable, is the same on every
#   replay and stays in the graph.
import pypto.language as pl

ROWS = 64
COLS = 128
LAYERS = 4


@pl.jit.incore
def copy_rows(src: pl.Tensor[[ROWS, COLS], pl.FP32], dst: pl.InOut[pl.Tensor[[ROWS, COLS], pl.FP32]]):
    t = pl.load(src, [0, 0], [ROWS, COLS])
    pl.store(t, [0, 0], dst)
    return dst


@pl.jit.incore
def add_into(src: pl.Tensor[[ROWS, COLS], pl.FP32], base: pl.Scalar[pl.INDEX], acc: pl.InOut[pl.Tensor[[ROWS, COLS], pl.FP32]]):
    cur = pl.load(acc, [0, 0], [ROWS, COLS])
    t = pl.load(src, [0, 0], [ROWS, COLS])
    pl.store(pl.add(cur, t), [0, 0], acc)
    return acc


@pl.jit.graph
def layer(w: pl.Tensor[[LAYERS * ROWS, COLS], pl.FP32], acc: pl.InOut[pl.Tensor[[ROWS, COLS], pl.FP32]], idx: pl.Scalar[pl.INDEX]):
    row = idx
    base = row * ROWS
    scratch = pl.create_tensor([ROWS, COLS], pl.FP32)
    band = pl.tensor.slice(w, [ROWS, COLS], [base, 0])
    scratch = copy_rows(band, scratch)
    acc = add_into(scratch, base, acc)
    for k in pl.range(2):
        part = pl.tensor.slice(w, [ROWS, COLS], [k * ROWS, 0])
        acc = add_into(part, base, acc)
    return acc


@pl.jit
def model(w: pl.Tensor[[LAYERS * ROWS, COLS], pl.FP32], acc: pl.InOut[pl.Tensor[[ROWS, COLS], pl.FP32]]):
    for i in pl.range(LAYERS):
        acc = layer(w, acc, i)
    return acc
