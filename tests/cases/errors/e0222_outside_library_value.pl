# A value of an outside library keys a dict constant, but is no value of pl code: read
# directly in a function, or through a name bound to it, it is E0222; a key the dict lacks is E0218 with the keys it has; a
# table of an outside library's values is host code, so a name read from it is too (E0222),
# as is an attribute of a host object (`cfg.rows`); an outside-library value is no extent.
import pypto.language as pl
import torch
from harness.core.harness import DataType

_PL_DT = {DataType.FP32: pl.FP32, DataType.FP16: pl.FP16}
_TORCH_DT = {DataType.FP32: torch.float32}
missing = _PL_DT[DataType.BF16]
torch_dt = _TORCH_DT[DataType.FP32]
cfg = load_config()
rows = cfg.rows
dtype = DataType.FP32


@pl.function(type=pl.FunctionType.Opaque)
def uses(
    a: pl.Tensor[[16, 16], pl.FP32],
    b: pl.Tensor[[16, 16], torch_dt],
    c: pl.Tensor[[rows, 16], pl.FP32],
    e: pl.Tensor[[dtype, 16], pl.FP32],
) -> pl.Tensor[[16, 16], pl.FP32]:
    c = pl.cast(a, target_type=_PL_DT[DataType.FP16])
    k = DataType.FP32
    d = dtype
    return a
