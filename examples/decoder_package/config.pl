# The shared configuration of the decoder package: constants only. Other modules import
# them with `from .config import ...` (or `from ..config import ...` from kernels/).
import pypto.language as pl

HIDDEN = 256
HEADS = 4
HEAD_DIM = HIDDEN // HEADS
ROW_TILE = 64
LAYERS = 2
