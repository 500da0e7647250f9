# @pl.function(attrs={...}) holds function attributes, as pl.func_attr({...}) does: PyPTO
# merges both and prints them as a pl.func_attr({...}) prologue, so the printed IR keeps
# them. An Opaque function marked "auto_tile" (either way) may be launched by pl.submit,
# also in the printed IR (the decorator's attributes were dropped, and the launch of the
# printed `tiled` refused, E0217). A dict, list or tuple value is left out, as the printed
# directive would not take it back.
import pypto.language as pl

SLOTS = 4


@pl.program
class Prog:
    @pl.function(attrs={"auto_tile": True})
    def tiled(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        y: pl.Tensor[[64], pl.FP32] = pl.exp(x)
        return y

    @pl.function
    def tiled_by_directive(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        pl.func_attr({"auto_tile": True})
        y: pl.Tensor[[64], pl.FP32] = pl.abs(x)
        return y

    @pl.function(type=pl.FunctionType.AIV, attrs={"split": pl.SplitMode.UP_DOWN})
    def kern(
        self, x: pl.Tensor[[64], pl.FP32], out: pl.Out[pl.Tensor[[64], pl.FP32]]
    ) -> pl.Tensor[[64], pl.FP32]:
        t = pl.load(x, [0], [64])
        return pl.store(t, [0], out)

    @pl.function(
        type=pl.FunctionType.AIV,
        attrs={"a": None, "b": (1, 2), "c": 1.5, "d": "s", "e": pl.FP32, "f": SLOTS, "g": {"x": 1}},
    )
    def values(
        self, x: pl.Tensor[[64], pl.FP32], out: pl.Out[pl.Tensor[[64], pl.FP32]]
    ) -> pl.Tensor[[64], pl.FP32]:
        t = pl.load(x, [0], [64])
        return pl.store(t, [0], out)

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self, x: pl.Tensor[[64], pl.FP32], out: pl.Out[pl.Tensor[[64], pl.FP32]]
    ) -> pl.Tensor[[64], pl.FP32]:
        with pl.manual_scope():
            z, ztid = pl.submit(self.tiled, x)
            v, vtid = pl.submit(self.tiled_by_directive, z, deps=[ztid])
        w = self.kern(v, out)
        u = self.values(w, out)
        return u
