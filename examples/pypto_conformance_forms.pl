# Forms of PyPTO's language that its own unit tests use and plc reads as PyPTO does (issue 11,
# conformance): the saturation mode of a cast (`saturation_mode="on"` clamps a value the
# target dtype cannot hold to its range, `"off"` leaves it to the target), and PyPTO's
# printed directions of a call, `attrs={"arg_directions": [pl.adir.input, ...]}`.
import pypto.language as pl


@pl.program
class Conformance:
    @pl.function(type=pl.FunctionType.InCore)
    def narrow(
        self, x: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP16]]
    ) -> pl.Tensor[[16, 16], pl.FP16]:
        t = pl.tile.load(x, [0, 0], [16, 16])
        h = pl.tile.cast(t, pl.FP16, mode="rint", saturation_mode="on")
        return pl.tile.store(h, [0, 0], out)

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self, x: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP16]]
    ) -> pl.Tensor[[16, 16], pl.FP16]:
        w = pl.tensor.cast(x, pl.FP32, mode="round", saturation_mode="off")
        out = self.narrow(w, out, attrs={"arg_directions": [pl.adir.input, pl.adir.output_existing]})
        return out
