# The refusals of PyPTO's `@pl.jit.extern(core_type="mixed", ...)`, each E0212: a mixed
# kernel needs both `aic_source=` and `aiv_source=` (`source=` does not stand for them),
# each naming an existing file (relative to this file's directory) as a string;
# `dual_aiv_dispatch=` is a bool literal.
import pypto.language as pl


@pl.jit.extern(core_type="mixed", aic_source="../warnings/kernels/ext_mix_aic.cpp")
def k_no_aiv(a: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]): ...


@pl.jit.extern(core_type="mixed", source="../warnings/kernels/ext_add.cpp")
def k_single_source(a: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]): ...


@pl.jit.extern(core_type="mixed", aic_source="kernels/missing.cpp", aiv_source="../warnings/kernels/ext_mix_aiv.cpp")
def k_missing_aic(a: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]): ...


@pl.jit.extern(core_type="mixed", aic_source="../warnings/kernels/ext_mix_aic.cpp", aiv_source=7)
def k_number_aiv(a: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]): ...


@pl.jit.extern(
    core_type="mixed",
    aic_source="../warnings/kernels/ext_mix_aic.cpp",
    aiv_source="../warnings/kernels/ext_mix_aiv.cpp",
    dual_aiv_dispatch=1,
)
def k_dual_number(a: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]): ...


@pl.jit.extern(
    core_type="mixed",
    aic_source="../warnings/kernels/ext_mix_aic.cpp",
    aiv_source="../warnings/kernels/ext_mix_aiv.cpp",
    include_dirs=["nowhere"],
)
def k_dirs_missing(a: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]): ...
