# Without a return annotation, the first `return` sets how many values the function
# returns; a later `return` with another count is E0225 (found by fuzzing: it used to
# reach the verifier as an internal error).
import pypto.language as pl


@pl.jit
def pick(x: pl.Tensor[[64], pl.FP32], n: pl.Scalar[pl.INDEX]):
    if n > 0:
        return x, n
    return x
