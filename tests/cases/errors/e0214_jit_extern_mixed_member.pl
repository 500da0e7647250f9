# A mixed `@pl.jit.extern` named `k` makes the functions `k_aic` and `k_aiv` (as PyPTO's
# specializer does): a function of one of those names defined before it is a second
# definition (E0214, at the mixed kernel's name); a body with statements is E0223, once.
import pypto.language as pl


@pl.jit.incore
def k_aiv(a: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
    t = pl.load(a, [0, 0], [16, 16])
    return pl.store(t, [0, 0], out)


@pl.jit.extern(
    core_type="mixed",
    aic_source="../warnings/kernels/ext_mix_aic.cpp",
    aiv_source="../warnings/kernels/ext_mix_aiv.cpp",
)
def k(a: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]): ...


@pl.jit.extern(
    core_type="mixed",
    aic_source="../warnings/kernels/ext_mix_aic.cpp",
    aiv_source="../warnings/kernels/ext_mix_aiv.cpp",
)
def k_body(a: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
    return out
