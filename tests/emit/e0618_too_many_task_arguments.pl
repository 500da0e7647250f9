# E0618: a kernel with 17 scalar or 33 tensor arguments compiled, and the runtime refused
# the launch when it ran (16 scalars and 32 tensors a task, as in simpler). Issue 15,
# item 15; tests/cli.rs checks the codes and positions.
import pypto.language as pl


@pl.jit.incore
def many_scalars(s0: pl.Scalar[pl.INDEX], s1: pl.Scalar[pl.INDEX], s2: pl.Scalar[pl.INDEX], s3: pl.Scalar[pl.INDEX], s4: pl.Scalar[pl.INDEX], s5: pl.Scalar[pl.INDEX], s6: pl.Scalar[pl.INDEX], s7: pl.Scalar[pl.INDEX], s8: pl.Scalar[pl.INDEX], s9: pl.Scalar[pl.INDEX], s10: pl.Scalar[pl.INDEX], s11: pl.Scalar[pl.INDEX], s12: pl.Scalar[pl.INDEX], s13: pl.Scalar[pl.INDEX], s14: pl.Scalar[pl.INDEX], s15: pl.Scalar[pl.INDEX], s16: pl.Scalar[pl.INDEX], out: pl.Out[pl.Tensor[[64], pl.FP32]]):
    t = pl.load(out, [0], [64])
    pl.store(t, [0], out)
    return out


@pl.jit.incore
def many_tensors(t0: pl.Tensor[[64], pl.FP32], t1: pl.Tensor[[64], pl.FP32], t2: pl.Tensor[[64], pl.FP32], t3: pl.Tensor[[64], pl.FP32], t4: pl.Tensor[[64], pl.FP32], t5: pl.Tensor[[64], pl.FP32], t6: pl.Tensor[[64], pl.FP32], t7: pl.Tensor[[64], pl.FP32], t8: pl.Tensor[[64], pl.FP32], t9: pl.Tensor[[64], pl.FP32], t10: pl.Tensor[[64], pl.FP32], t11: pl.Tensor[[64], pl.FP32], t12: pl.Tensor[[64], pl.FP32], t13: pl.Tensor[[64], pl.FP32], t14: pl.Tensor[[64], pl.FP32], t15: pl.Tensor[[64], pl.FP32], t16: pl.Tensor[[64], pl.FP32], t17: pl.Tensor[[64], pl.FP32], t18: pl.Tensor[[64], pl.FP32], t19: pl.Tensor[[64], pl.FP32], t20: pl.Tensor[[64], pl.FP32], t21: pl.Tensor[[64], pl.FP32], t22: pl.Tensor[[64], pl.FP32], t23: pl.Tensor[[64], pl.FP32], t24: pl.Tensor[[64], pl.FP32], t25: pl.Tensor[[64], pl.FP32], t26: pl.Tensor[[64], pl.FP32], t27: pl.Tensor[[64], pl.FP32], t28: pl.Tensor[[64], pl.FP32], t29: pl.Tensor[[64], pl.FP32], t30: pl.Tensor[[64], pl.FP32], t31: pl.Tensor[[64], pl.FP32], out: pl.Out[pl.Tensor[[64], pl.FP32]]):
    t = pl.load(t0, [0], [64])
    pl.store(t, [0], out)
    return out


@pl.jit
def entry(x: pl.Tensor[[64], pl.FP32], out: pl.Out[pl.Tensor[[64], pl.FP32]]):
    out = many_scalars(1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, out)
    out = many_tensors(x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, out)
    return out
