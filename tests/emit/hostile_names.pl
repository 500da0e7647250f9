# Names that collided with what plc generates (issue 15, item 13): variables and
# parameters named as the runtime's types and functions (`ChipTensor`, `CoreTaskArgs`,
# `GraphTaskArgs`, `rt_submit_task`) and as macros (`EOF`, `INFINITY`, `NAN`,
# `PTO2_SCOPE`); kernels named as the kernel table's symbols (`table`, `count`, `fn`) and
# file (`kernel_table`); entry parameters whose harness variables met (`w` and `w_data`,
# `acc` and `acc__ssa_v1`);
# a kernel and an entry named with 250 characters (the file name was too long). The
# harness build (tests/compile.rs) must compile with -Wall -Wextra -Werror and print what
# `plc run` prints.
import pypto.language as pl

N = 64


@pl.jit.incore
def table(ChipTensor: pl.Tensor[[N, N], pl.FP32], EOF: pl.Out[pl.Tensor[[N, N], pl.FP32]]):
    INFINITY = pl.load(ChipTensor, [0, 0], [N, N])
    pl.store(INFINITY, [0, 0], EOF)
    return EOF


@pl.jit.incore
def count(CoreTaskArgs: pl.Tensor[[N, N], pl.FP32], NAN: pl.Out[pl.Tensor[[N, N], pl.FP32]]):
    PTO2_SCOPE = pl.load(CoreTaskArgs, [0, 0], [N, N])
    pl.store(PTO2_SCOPE, [0, 0], NAN)
    return NAN


@pl.jit.incore
def fn(GraphTaskArgs: pl.Tensor[[N, N], pl.FP32], rt_submit_task: pl.Out[pl.Tensor[[N, N], pl.FP32]]):
    t = pl.load(GraphTaskArgs, [0, 0], [N, N])
    pl.store(t, [0, 0], rt_submit_task)
    return rt_submit_task


@pl.jit.incore
def kernel_table(a: pl.Tensor[[N, N], pl.FP32], b: pl.Out[pl.Tensor[[N, N], pl.FP32]]):
    t = pl.load(a, [0, 0], [N, N])
    pl.store(t, [0, 0], b)
    return b


@pl.jit
def entry(w: pl.Tensor[[N, N], pl.FP32], w_data: pl.Tensor[[N, N], pl.FP32], acc: pl.InOut[pl.Tensor[[N, N], pl.FP32]], acc__ssa_v1: pl.Out[pl.Tensor[[N, N], pl.FP32]]):
    ChipTensor = pl.create_tensor([N, N], dtype=pl.FP32)
    EOF = pl.create_tensor([N, N], dtype=pl.FP32)
    ChipTensor = table(w, ChipTensor)
    EOF = count(ChipTensor, EOF)
    acc = fn(EOF, acc)
    acc__ssa_v1 = kernel_table(w_data, acc__ssa_v1)
    return acc__ssa_v1


@pl.jit.incore
def kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk(a: pl.Tensor[[N, N], pl.FP32], b: pl.Out[pl.Tensor[[N, N], pl.FP32]]):
    t = pl.load(a, [0, 0], [N, N])
    pl.store(pl.add(t, t), [0, 0], b)
    return b


@pl.jit
def eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee(w: pl.Tensor[[N, N], pl.FP32], w_data: pl.Out[pl.Tensor[[N, N], pl.FP32]]):
    w_data = kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk(w, w_data)
    return w_data
