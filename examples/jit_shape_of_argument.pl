# A `@pl.jit` entry whose tensors are bare `pl.Tensor` parameters: their shape and dtype
# are only known when the function is called. A scratch buffer takes the shape and dtype
# of an argument (`x.shape`, `x.dtype`), and the operations on values of unknown type are
# chosen by where they stand: tile operations inside `pl.at(level=pl.Level.CORE_GROUP)`,
# tensor operations outside.
import pypto.language as pl

TILE = 64


@pl.jit
def square_then_product(x: pl.Tensor, w: pl.Tensor, out: pl.Out[pl.Tensor]):
    scratch = pl.create_tensor(x.shape, dtype=x.dtype, memory_type=pl.MemorySpace.DDR)
    with pl.at(level=pl.Level.CORE_GROUP):
        tx = pl.load(x, [0, 0], [TILE, TILE])
        pl.store(pl.mul(tx, tx), [0, 0], scratch)
    with pl.at(level=pl.Level.CORE_GROUP):
        a = pl.load(scratch, [0, 0], [TILE, TILE], target_memory=pl.MemorySpace.Mat)
        b = pl.load(w, [0, 0], [TILE, TILE], target_memory=pl.MemorySpace.Mat)
        a_left = pl.move(a, target_memory=pl.MemorySpace.Left)
        b_right = pl.move(b, target_memory=pl.MemorySpace.Right)
        product = pl.matmul(a_left, b_right)
        pl.store(product, [0, 0], out)
    return out
