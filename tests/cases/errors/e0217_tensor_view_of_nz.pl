# E0217: pl.tensor.view reinterprets row-major storage; a tensor declared in the fractal NZ
# layout has none, so a view of it is refused (a view of a plain tensor is fine). NZ is a
# tile layout: `pl.tensor.as_layout` to it is refused too (PyPTO: "NZ layout is not
# allowed"), as is a DN layout of a 1-D tensor.
import pypto.language as pl


@pl.program
class NzViews:
    @pl.function(type=pl.FunctionType.InCore)
    def main(
        self,
        w: pl.Tensor[[128, 256], pl.INT8, pl.NZ],
        p: pl.Tensor[[128, 256], pl.INT8],
        out: pl.Out[pl.Tensor[[256, 128], pl.INT8]],
    ):
        flat = pl.tensor.view(p, [256, 128])
        bad = pl.tensor.view(w, [256, 128])
        fractal = pl.tensor.as_layout(p, layout=pl.TensorLayout.NZ)
        row = pl.tensor.view(p, [32768])
        flipped = pl.tensor.as_layout(row, layout=pl.TensorLayout.DN)
        t = pl.load(flat, [0, 0], [256, 128], target_memory=pl.Mem.Vec)
        pl.store(t, [0, 0], out)
        return out
