import pypto.language as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.Opaque)
    def main(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP):
            y = pl.add(x, x)
            with pl.at(level=pl.Level.CORE_GROUP):
                z = pl.mul(y, y)
        return z

    @pl.function(type=pl.FunctionType.Opaque)
    def in_spmd_loop(
        self, x: pl.Tensor[[64], pl.FP32], y: pl.Out[pl.Tensor[[64], pl.FP32]]
    ) -> pl.Tensor[[64], pl.FP32]:
        for i in pl.spmd(4):
            with pl.at(level=pl.Level.CORE_GROUP):
                y[:] = pl.add(x, x)
        return y
