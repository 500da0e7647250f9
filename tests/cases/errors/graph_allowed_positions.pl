# Where `with pl.graph("name"):` is ACCEPTED (DECISIONS §2, reference §6.1): in Opaque,
# Orchestration, Graph and Inline functions, at the top of the body and inside
# `for` (pl.range/parallel/unroll/pipeline), `if`, `while`, `pl.scope()` and
# `pl.manual_scope()`; and `pl.at`, `pl.cluster`, `pl.spmd` and `pl.manual_scope` are
# allowed inside a graph region. None of the functions of the program class or the jit
# functions is reported; only the last function, which has an unrelated error (an
# undefined name), is: the file is an error case only because of it.
import pypto.language as pl

ROWS = 64
COLS = 64


@pl.program
class Allowed:
    # Opaque (plain @pl.function), with a hand-placed pl.scope() (auto_scope=False).
    @pl.function(auto_scope=False)
    def opaque(
        self, x: pl.Tensor[[64, 64], pl.FP32], n: pl.Scalar[pl.INDEX]
    ) -> pl.Tensor[[64, 64], pl.FP32]:
        with pl.graph("top"):
            y: pl.Tensor[[64, 64], pl.FP32] = pl.add(x, x)
        for i in pl.range(4):
            with pl.graph("in_range"):
                y = pl.add(y, x)
        if n > 0:
            with pl.graph("in_if"):
                y = pl.mul(y, x)
        else:
            with pl.graph("in_else"):
                y = pl.sub(y, x)
        while n > 0:
            with pl.graph("in_while"):
                y = pl.add(y, x)
            n = n - 1
        with pl.scope():
            with pl.graph("in_scope"):
                y = pl.add(y, x)
        with pl.manual_scope():
            with pl.graph("in_manual_scope"):
                y = pl.add(y, x)
        return y

    # Orchestration, with device scopes inside the graph regions.
    @pl.function(type=pl.FunctionType.Orchestration)
    def orchestration(
        self, x: pl.Tensor[[64, 64], pl.FP32], out: pl.Out[pl.Tensor[[64, 64], pl.FP32]]
    ) -> pl.Tensor[[64, 64], pl.FP32]:
        for i in pl.parallel(2):
            with pl.graph("in_parallel"):
                with pl.at(level=pl.Level.CORE_GROUP):
                    t: pl.Tile[[64, 64], pl.FP32] = pl.load(x, [0, 0], [ROWS, COLS])
                    pl.store(t, [0, 0], out)
        for j in pl.unroll(2):
            with pl.graph("in_unroll"):
                with pl.cluster():
                    with pl.at(level=pl.Level.CORE_GROUP):
                        t2: pl.Tile[[64, 64], pl.FP32] = pl.load(x, [0, 0], [ROWS, COLS])
                        pl.store(t2, [0, 0], out)
        for k in pl.pipeline(4, stage=2):
            with pl.graph("in_pipeline"):
                with pl.manual_scope():
                    with pl.spmd(4):
                        blk = pl.tile.get_block_idx()
                        t3: pl.Tile[[64, 64], pl.FP32] = pl.load(x, [0, 0], [ROWS, COLS])
                        pl.store(t3, [0, 0], out)
        return out

    # Graph (parser accepts a region here; the Graph->Graph call is a pass-level error).
    @pl.function(type=pl.FunctionType.Graph, auto_scope=False)
    def graph_fn(self, x: pl.InOut[pl.Tensor[[64, 64], pl.FP32]]) -> pl.Tensor[[64, 64], pl.FP32]:
        with pl.scope():
            with pl.graph("in_graph_function"):
                with pl.at(level=pl.Level.CORE_GROUP):
                    t: pl.Tile[[64, 64], pl.FP32] = pl.load(x, [0, 0], [ROWS, COLS])
                    pl.store(t, [0, 0], x)
        return x

    # Inline: the region is spliced into the caller.
    @pl.function(type=pl.FunctionType.Inline)
    def inline_fn(
        self, x: pl.Tensor[[64, 64], pl.FP32], n: pl.Scalar[pl.INDEX]
    ) -> pl.Tensor[[64, 64], pl.FP32]:
        y: pl.Tensor[[64, 64], pl.FP32] = pl.add(x, x)
        if n > 1:
            with pl.graph("in_inline"):
                y = pl.mul(y, x)
        return y


@pl.jit.opaque
def jit_opaque(x: pl.Tensor, out: pl.Out[pl.Tensor]):
    with pl.manual_scope():
        with pl.graph("jit_opaque_region"):
            with pl.at(level=pl.Level.CORE_GROUP):
                t = pl.load(x, [0, 0], [ROWS, COLS])
                pl.store(t, [0, 0], out)
    return out


@pl.jit.graph
def jit_graph(x: pl.Tensor, acc: pl.InOut[pl.Tensor], n: pl.INDEX):
    for i in pl.range(n):
        with pl.graph("jit_graph_region"):
            with pl.at(level=pl.Level.CORE_GROUP):
                t = pl.load(x, [0, 0], [ROWS, COLS])
                pl.store(t, [0, 0], acc)
    return acc


@pl.jit.inline
def jit_inline(x: pl.Tensor, out: pl.Out[pl.Tensor], n: pl.INDEX):
    while n > 0:
        with pl.graph("jit_inline_region"):
            with pl.at(level=pl.Level.CORE_GROUP):
                t = pl.load(x, [0, 0], [ROWS, COLS])
                pl.store(t, [0, 0], out)
        n = n - 1
    return out


@pl.jit(auto_scope=False)
def jit_entry(x: pl.Tensor, acc: pl.InOut[pl.Tensor], out: pl.Out[pl.Tensor], n: pl.INDEX):
    with pl.scope():
        with pl.graph("jit_entry_region"):
            with pl.at(level=pl.Level.CORE_GROUP):
                t = pl.load(x, [0, 0], [ROWS, COLS])
                pl.store(t, [0, 0], out)
    out = jit_opaque(x, out)
    acc = jit_graph(x, acc, n)
    out = jit_inline(x, out, n)
    return acc, out


# The one error of this file, unrelated to pl.graph.
@pl.jit
def unrelated(x: pl.Tensor):
    return undefined_name
