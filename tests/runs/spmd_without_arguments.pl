# A `pl.spmd` region that reads no tensor of the caller (its body reads only its block
# index) is launched with no arguments, and its task id orders a later task. The C++ build
# once stopped at E0708 (a call with no arguments has no directions to derive); it prints
# what `plc run` prints: `out` is `a` + 1 (a = 1..4: sum 14).
# run: --entry main --arg a=[1,2,3,4]
import pypto.language as pl


@pl.program
class NoArgs:
    @pl.function(type=pl.FunctionType.InCore)
    def add_one(
        self, x: pl.Tensor[[1, 4], pl.FP32], out: pl.Out[pl.Tensor[[1, 4], pl.FP32]]
    ) -> pl.Tensor[[1, 4], pl.FP32]:
        t = pl.load(x, [0, 0], [1, 4])
        u = pl.add(t, 1.0)
        out = pl.store(u, [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self, a: pl.Tensor[[1, 4], pl.FP32], out: pl.Out[pl.Tensor[[1, 4], pl.FP32]]
    ) -> pl.Tensor[[1, 4], pl.FP32]:
        with pl.spmd(4) as tid:
            i = pl.tile.get_block_idx()
        out, _t = pl.submit(self.add_one, a, out, deps=[tid])
        return out
