# PyPTO's system tests map their harness's dtype enum onto pl dtypes with a dict
# (`_PL_DT = {DataType.FP32: pl.FP32, ...}`) and pick a program's dtype as
# `dt = _PL_DT[DataType.FP16]`, or through a parametrize value bound to a name
# (`dtype = DataType.FP16`, then `_PL_DT[dtype]`). A value of an outside library is known by its spelling
# only: it may key a dict constant and read one; a table whose values come from an outside
# library (`torch.float32`) stays host code.
import pypto.language as pl
import torch
from harness.core.harness import DataType

M = 16
N = 32

_PL_DT = {
    DataType.FP32: pl.FP32,
    DataType.FP16: pl.FP16,
    DataType.INT16: pl.INT16,
}
_TORCH_DT = {DataType.FP32: torch.float32, DataType.FP16: torch.float16}
dtype = DataType.FP16
src_dt, dst_dt = _PL_DT[dtype], _PL_DT[DataType.FP32]
bits_dt = _PL_DT[DataType.INT16]
ROWS = {DataType.FP32: 8, DataType.FP16: 16}[DataType.FP16]


@pl.program
class CastByTable:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        a: pl.Tensor[[M, N], src_dt],
        out: pl.Out[pl.Tensor[[ROWS, N], dst_dt]],
    ) -> pl.Tensor[[ROWS, N], dst_dt]:
        t = pl.load(a, [0, 0], [ROWS, N])
        return pl.store(pl.cast(t, target_type=dst_dt), [0, 0], out)

    @pl.function(type=pl.FunctionType.Orchestration)
    def orchestrator(
        self,
        a: pl.Tensor[[M, N], src_dt],
        out: pl.Out[pl.Tensor[[ROWS, N], dst_dt]],
    ) -> pl.Tensor[[ROWS, N], dst_dt]:
        return self.kernel(a, out)
