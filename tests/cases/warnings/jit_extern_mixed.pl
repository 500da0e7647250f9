# PyPTO's `@pl.jit.extern(core_type="mixed", aic_source=..., aiv_source=...)`: a kernel of
# two hand-written halves launched as one mixed task. As PyPTO's specializer does, lowering
# makes of the stub an external AIC kernel `<name>_aic` (the file `aic_source=` names), an
# external AIV kernel `<name>_aiv` (`aiv_source=`) and a Group `<name>` with the stub's
# signature, which calls the AIC member (its result returned, when the stub returns one)
# and then the AIV member with its parameters; the entry's bare-name call calls the Group.
# `include_dirs=` is kept on both members (the `external_include_dirs` attribute, a JSON
# list of absolute paths, shown here from the checkout's root) and `dual_aiv_dispatch=True`
# on the AIV member. `plc compile` copies both files and launches the Group as one mixed
# task (tests/cli.rs jit_extern_mixed_kernel_compiles).
import pypto.language as pl


@pl.jit.extern(
    core_type="mixed",
    aic_source="kernels/ext_mix_aic.cpp",
    aiv_source="kernels/ext_mix_aiv.cpp",
    include_dirs=["kernels/include"],
)
def ext_mix(
    a: pl.Tensor[[16, 16], pl.FP32],
    out: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
) -> pl.Tensor[[16, 16], pl.FP32]:
    """out = f(a), in a hand-written cube and vector pair."""
    ...


@pl.jit.extern(
    core_type="mixed",
    aic_source="kernels/ext_mix_aic.cpp",
    aiv_source="kernels/ext_mix_aiv.cpp",
    dual_aiv_dispatch=True,
)
def ext_mix_dual(a: pl.Tensor[[16, 16], pl.FP32], out: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]): ...


@pl.jit
def main(
    a: pl.Tensor[[16, 16], pl.FP32],
    out: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
) -> pl.Tensor[[16, 16], pl.FP32]:
    out = ext_mix(a, out)
    ext_mix_dual(a, out)
    return out
