# pl calls without the operands they need: each is E0202, not silently dropped (which
# left later uses of the assigned names undefined).
import pypto.language as pl

@pl.jit
def f(x: pl.Tensor[[64], pl.FP32], n: pl.Scalar[pl.INDEX]):
    a = pl.add(n)
    b = pl.const()
    c = pl.matmul(out_dtype=pl.FP16)
    return x
