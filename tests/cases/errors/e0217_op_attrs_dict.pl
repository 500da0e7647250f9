# E0217: attrs={...} on an op call is PyPTO's generic attribute dict (the printer's
# round-trip surface): a dict literal with string keys, accepted and not kept; a
# dependency edge is not one of its entries. A value may be any constant, a name, an enum
# member (`pl.adir.input` too) or a list of them.
import pypto.language as pl


@pl.program
class OpAttrs:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self, x: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        t = pl.load(x, [0, 0], [16, 16], attrs={"software_pipeline_slots": True})
        u = pl.add(t, t, attrs={"manual_dep_edges": [t]})
        v = pl.mul(t, t, attrs=[1])
        w = pl.exp(t, attrs={1: 2})
        z = pl.neg(t, attrs={"direction": pl.adir.input, "directions": [pl.adir.inout], "layout": pl.TileLayout.row_major})
        out = pl.store(t, [0, 0], out)
        return out
