# PyPTO's `@pl.jit.extern`: a signature with a `...` body whose kernel is the C++ file
# `source=` names, relative to this file. `core_type` is "aiv" when not given (an AIV
# function) or "aic" (an AIC one); `aic_source=`/`aiv_source=` stand for `source=` when it
# is absent; `include_dirs=` lists directories the kernel's compiler searches (kept as the
# `external_include_dirs` attribute, absolute). The `@pl.jit` entry calls the kernels by
# bare name. They lower as `@pl.function(type=..., external_source=...)` does (printed so,
# with the absolute paths, shown here from the checkout's root), and `plc compile` passes
# the file through (tests/cli.rs jit_extern_kernels_pass_through, jit_extern_include_dirs_kept).
import pypto.language as pl

KERNEL = "kernels/ext_add.cpp"


@pl.jit.extern(source="kernels/ext_add.cpp", include_dirs=["kernels"])
def ext_add(
    a: pl.Tensor[[16, 16], pl.FP32],
    b: pl.Tensor[[16, 16], pl.FP32],
    out: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
) -> pl.Tensor[[16, 16], pl.FP32]:
    """out = a + b, in hand-written C++."""
    ...


@pl.jit.extern(core_type="aic", aic_source=KERNEL)
def ext_cube(a: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]: ...


@pl.jit
def main(
    a: pl.Tensor[[16, 16], pl.FP32],
    b: pl.Tensor[[16, 16], pl.FP32],
    out: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
) -> pl.Tensor[[16, 16], pl.FP32]:
    tmp = pl.create_tensor([16, 16], dtype=pl.FP32)
    tmp = ext_add(a, b, tmp)
    out = ext_cube(tmp, out)
    return out
