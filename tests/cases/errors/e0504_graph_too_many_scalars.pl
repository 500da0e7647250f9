# E0504: a graph boundary over the runtime's limit of 64 scalar parameters.
import pypto.language as pl


@pl.jit.incore
def kernel(a: pl.Tensor[[64], pl.FP32], out: pl.InOut[pl.Tensor[[64], pl.FP32]]):
    t = pl.load(a, [0], [64])
    pl.store(t, [0], out)
    return out


@pl.jit.graph
def layer(a: pl.Tensor[[64], pl.FP32], c: pl.InOut[pl.Tensor[[64], pl.FP32]], s0: pl.Scalar[pl.INDEX], s1: pl.Scalar[pl.INDEX], s2: pl.Scalar[pl.INDEX], s3: pl.Scalar[pl.INDEX], s4: pl.Scalar[pl.INDEX], s5: pl.Scalar[pl.INDEX], s6: pl.Scalar[pl.INDEX], s7: pl.Scalar[pl.INDEX], s8: pl.Scalar[pl.INDEX], s9: pl.Scalar[pl.INDEX], s10: pl.Scalar[pl.INDEX], s11: pl.Scalar[pl.INDEX], s12: pl.Scalar[pl.INDEX], s13: pl.Scalar[pl.INDEX], s14: pl.Scalar[pl.INDEX], s15: pl.Scalar[pl.INDEX], s16: pl.Scalar[pl.INDEX], s17: pl.Scalar[pl.INDEX], s18: pl.Scalar[pl.INDEX], s19: pl.Scalar[pl.INDEX], s20: pl.Scalar[pl.INDEX], s21: pl.Scalar[pl.INDEX], s22: pl.Scalar[pl.INDEX], s23: pl.Scalar[pl.INDEX], s24: pl.Scalar[pl.INDEX], s25: pl.Scalar[pl.INDEX], s26: pl.Scalar[pl.INDEX], s27: pl.Scalar[pl.INDEX], s28: pl.Scalar[pl.INDEX], s29: pl.Scalar[pl.INDEX], s30: pl.Scalar[pl.INDEX], s31: pl.Scalar[pl.INDEX], s32: pl.Scalar[pl.INDEX], s33: pl.Scalar[pl.INDEX], s34: pl.Scalar[pl.INDEX], s35: pl.Scalar[pl.INDEX], s36: pl.Scalar[pl.INDEX], s37: pl.Scalar[pl.INDEX], s38: pl.Scalar[pl.INDEX], s39: pl.Scalar[pl.INDEX], s40: pl.Scalar[pl.INDEX], s41: pl.Scalar[pl.INDEX], s42: pl.Scalar[pl.INDEX], s43: pl.Scalar[pl.INDEX], s44: pl.Scalar[pl.INDEX], s45: pl.Scalar[pl.INDEX], s46: pl.Scalar[pl.INDEX], s47: pl.Scalar[pl.INDEX], s48: pl.Scalar[pl.INDEX], s49: pl.Scalar[pl.INDEX], s50: pl.Scalar[pl.INDEX], s51: pl.Scalar[pl.INDEX], s52: pl.Scalar[pl.INDEX], s53: pl.Scalar[pl.INDEX], s54: pl.Scalar[pl.INDEX], s55: pl.Scalar[pl.INDEX], s56: pl.Scalar[pl.INDEX], s57: pl.Scalar[pl.INDEX], s58: pl.Scalar[pl.INDEX], s59: pl.Scalar[pl.INDEX], s60: pl.Scalar[pl.INDEX], s61: pl.Scalar[pl.INDEX], s62: pl.Scalar[pl.INDEX], s63: pl.Scalar[pl.INDEX], s64: pl.Scalar[pl.INDEX]):
    c = kernel(a, c)
    return c
