# E0217: attrs= of a function call takes no "manual_dep_edges" (dependency edges are
# written as deps=[...]), and its "arg_directions" names one direction per positional
# argument.
import pypto.language as pl


@pl.program
class Calls:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self, x: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        t = pl.load(x, [0, 0], [16, 16])
        out = pl.store(t, [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        out = self.kernel(x, out, attrs={"arg_directions": ["Input", "OutputExisting"]})
        out = self.kernel(x, out, attrs={"manual_dep_edges": [x]})
        out = self.kernel(x, out, attrs={"arg_directions": ["Input"]})
        return out
