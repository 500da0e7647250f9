# PyPTO's `@pl.jit.extern` refusals (its `_ExternKernelDecorator`), each E0212: a core type
# other than "aic", "aiv" or "mixed" (those of "mixed" are in e0212_jit_extern_mixed.pl);
# dual_aiv_dispatch without "mixed"; no source; a source that does not exist (relative paths are resolved
# against this file's directory); include_dirs that is not a list, or names no directory;
# an argument the decorator does not take. A body with statements is E0223.
import pypto.language as pl


@pl.jit.extern(core_type="gpu", source="../warnings/kernels/ext_add.cpp")
def k_gpu(a: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]): ...


@pl.jit.extern(source="../warnings/kernels/ext_add.cpp", dual_aiv_dispatch=True)
def k_dual(a: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]): ...


@pl.jit.extern(core_type="aic")
def k_nosource(a: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]): ...


@pl.jit.extern
def k_bare(a: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]): ...


@pl.jit.extern(source="kernels/missing.cpp")
def k_missing(a: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]): ...


@pl.jit.extern(source=42)
def k_number(a: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]): ...


@pl.jit.extern(source="../warnings/kernels/ext_add.cpp", include_dirs="../warnings/kernels")
def k_dirs_str(a: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]): ...


@pl.jit.extern(source="../warnings/kernels/ext_add.cpp", include_dirs=["../warnings/kernels", "nowhere"])
def k_dirs_missing(a: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]): ...


@pl.jit.extern(source="../warnings/kernels/ext_add.cpp", level=pl.Level.AIV)
def k_level(a: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]): ...


@pl.jit.extern(source="../warnings/kernels/ext_add.cpp")
def k_body(a: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
    return out
