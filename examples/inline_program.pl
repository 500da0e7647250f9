# Inline functions in program form. InlineFunctions splices each
# `@pl.function(type=pl.FunctionType.Inline)` method into its callers and deletes it:
# `scale` is used for its value, `write_back` is called as a statement for its effect on
# an InOut tensor, and `graph_wrap` holds a `pl.graph` region, which is allowed in an
# Inline function because the region is spliced into an orchestration body before
# OutlineGraphScopes runs.
import pypto.language as pl

LEN = 128


@pl.program
class InlineHelpers:
    @pl.function(type=pl.FunctionType.Inline)
    def scale(self, x: pl.Tensor[[LEN], pl.FP32]) -> pl.Tensor[[LEN], pl.FP32]:
        y: pl.Tensor[[LEN], pl.FP32] = pl.mul(x, 2.0)
        return y

    @pl.function(type=pl.FunctionType.Inline)
    def write_back(
        self,
        src: pl.Tensor[[LEN], pl.FP32],
        dst: pl.InOut[pl.Tensor[[LEN], pl.FP32]],
    ) -> pl.Tensor[[LEN], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="copy_back"):
            dst[:] = pl.add(src, 0.0)
        return dst

    @pl.function(type=pl.FunctionType.Inline)
    def graph_wrap(
        self,
        x: pl.Tensor[[LEN], pl.FP32],
        out: pl.InOut[pl.Tensor[[LEN], pl.FP32]],
    ) -> pl.Tensor[[LEN], pl.FP32]:
        with pl.graph("wrapped"):
            with pl.at(level=pl.Level.CORE_GROUP):
                out[:] = pl.add(x, x)
        return out

    @pl.function
    def main(
        self,
        a: pl.Tensor[[LEN], pl.FP32],
        result: pl.InOut[pl.Tensor[[LEN], pl.FP32]],
    ) -> pl.Tensor[[LEN], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP):
            doubled: pl.Tensor[[LEN], pl.FP32] = self.scale(a)
        w = pl.create_tensor([LEN], pl.FP32)
        w = self.graph_wrap(doubled, w)
        self.write_back(w, result)
        return result
