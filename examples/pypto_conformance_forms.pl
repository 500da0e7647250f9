# Forms of PyPTO's language that its own unit tests use and plc reads as PyPTO does (issue 11,
# conformance): the saturation mode of a cast (`saturation_mode="on"` clamps a value the
# target dtype cannot hold to its range, `"off"` leaves it to the target), and PyPTO's
# printed directions of a call, `attrs={"arg_directions": [pl.adir.input, ...]}`, a task id
# that starts as `None` ("no task yet": the id of no task) and is then rebound by
# `pl.submit`, a loop's `attrs={...}`, and a runtime scope's name hint that is any string
# (`pl.manual_scope(name_hint="bump three times")`), and a module constant given by a
# conditional expression (`N = 16 if TOKENS >= 16 else 32`: Python evaluates it, and so does
# plc; inside a pl function the form stays refused, as in PyPTO).
import pypto.language as pl

TOKENS = 64
N = 16 if TOKENS >= 16 else 32


@pl.program
class Conformance:
    @pl.function(type=pl.FunctionType.InCore)
    def narrow(
        self, x: pl.Tensor[[N, N], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP16]]
    ) -> pl.Tensor[[16, 16], pl.FP16]:
        t = pl.tile.load(x, [0, 0], [16, 16])
        w = pl.tile.cast(t, pl.FP32, mode="round", saturation_mode="off")
        h = pl.tile.cast(w, pl.FP16, mode="rint", saturation_mode="on")
        return pl.tile.store(h, [0, 0], out)

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self, x: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP16]]
    ) -> pl.Tensor[[16, 16], pl.FP16]:
        out = self.narrow(x, out, attrs={"arg_directions": [pl.adir.input, pl.adir.output_existing]})
        return out

    @pl.function(type=pl.FunctionType.InCore)
    def bump(self, acc: pl.InOut[pl.Tensor[[16], pl.FP32]]) -> pl.Tensor[[16], pl.FP32]:
        t = pl.tile.load(acc, [0], [16])
        u = pl.tile.adds(t, 1.0)
        return pl.tile.store(u, [0], acc)

    @pl.function(type=pl.FunctionType.InCore)
    def twice(self, x: pl.Tensor[[16], pl.FP32], y: pl.Out[pl.Tensor[[16], pl.FP32]]) -> pl.Tensor[[16], pl.FP32]:
        t = pl.tile.load(x, [0], [16])
        u = pl.tile.add(t, t)
        return pl.tile.store(u, [0], y)

    @pl.function(type=pl.FunctionType.Orchestration)
    def chained(
        self, acc: pl.InOut[pl.Tensor[[16], pl.FP32]], y: pl.Out[pl.Tensor[[16], pl.FP32]]
    ) -> pl.Tensor[[16], pl.FP32]:
        with pl.manual_scope(name_hint="bump three times"):
            prev_tid = None
            for i in pl.range(3, attrs={"software_pipeline_family": 1}):
                acc, prev_tid = pl.submit(self.bump, acc, deps=[prev_tid])
            first, last_tid = pl.submit(self.bump, acc, deps=[prev_tid])
            y, _ = pl.submit(self.twice, first, y, deps=[last_tid])
        return y
