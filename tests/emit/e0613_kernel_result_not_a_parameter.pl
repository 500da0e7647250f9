# E0613: a kernel returns a tensor it computes, of a shape known only at run time: the
# orchestration code has no buffer to name for it.
import pypto.language as pl


@pl.jit.incore
def product(a: pl.Tensor, b: pl.Tensor) -> pl.Tensor:
    c = pl.matmul(a, b, out_dtype=pl.FP32)
    return c


@pl.jit
def main(a: pl.Tensor, b: pl.Tensor, out: pl.Out[pl.Tensor]):
    c = product(a, b)
    return out
