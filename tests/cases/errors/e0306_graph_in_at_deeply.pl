# E0306: a graph region inside a device scope through a loop and a runtime scope: the
# check is on textual nesting at any depth.
import pypto.language as pl


@pl.program
class Bad:
    @pl.function(auto_scope=False)
    def main(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        with pl.cluster():
            for i in pl.range(2):
                with pl.scope():
                    with pl.graph("layer"):
                        y: pl.Tensor[[64], pl.FP32] = pl.add(x, x)
        return y
