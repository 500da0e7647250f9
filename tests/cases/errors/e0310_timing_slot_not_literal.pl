# E0310: pl.spmd_submit(timing_slot=...) takes an integer literal (the device timing slot
# a profiling run records the task in); the first launch's literal slot is fine.
import pypto.language as pl


@pl.program
class TimedLaunch:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, x: pl.Tensor[[64], pl.FP32], out: pl.Out[pl.Tensor[[64], pl.FP32]]) -> pl.Tensor[[64], pl.FP32]:
        t = pl.load(x, [0], [64])
        return pl.store(t, [0], out)

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[64], pl.FP32], slot: pl.Scalar[pl.INDEX], out: pl.Out[pl.Tensor[[64], pl.FP32]]) -> pl.Tensor[[64], pl.FP32]:
        with pl.manual_scope():
            mid = pl.create_tensor([64], dtype=pl.FP32)
            mid, tid = pl.submit(self.k, x, mid, timing_slot=2)
            out, _ = pl.spmd_submit(self.k, mid, out, core_num=2, deps=[tid], timing_slot=slot)
        return out
