# The attributes PyPTO's specializer gives an external kernel of `@pl.jit.extern`, read back
# from `@pl.function(external_source=..., attrs={...})` as a printed program writes them:
# "external_include_dirs" is a JSON list of existing directories in a string (E0212
# otherwise) and "dual_aiv_dispatch" a bool literal (E0212 otherwise).
import pypto.language as pl


@pl.program
class Prog:
    @pl.function(
        type=pl.FunctionType.AIV,
        external_source="../warnings/kernels/ext_add.cpp",
        attrs={"external_include_dirs": "../warnings/kernels"},
    )
    def not_json(self, a: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]): ...

    @pl.function(
        type=pl.FunctionType.AIV,
        external_source="../warnings/kernels/ext_add.cpp",
        attrs={"external_include_dirs": '["../warnings/kernels", "nowhere"]'},
    )
    def missing_dir(self, a: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]): ...

    @pl.function(
        type=pl.FunctionType.AIV,
        external_source="../warnings/kernels/ext_add.cpp",
        attrs={"dual_aiv_dispatch": "yes"},
    )
    def dual_text(self, a: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]): ...
