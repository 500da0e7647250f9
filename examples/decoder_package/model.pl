# A program spread over a package, as PyPTO's larger models are: constants from
# `.config`, kernels from `.kernels.mlp` and `.kernels.norm`, each file read once.
import pypto.language as pl

from .config import LAYERS, ROW_TILE, HIDDEN
from .kernels.mlp import mlp_rows
from .kernels.norm import scale_rows


@pl.jit
def decode(x: pl.Tensor, w: pl.Tensor, hidden: pl.InOut[pl.Tensor], out: pl.Out[pl.Tensor]):
    for layer in pl.range(LAYERS):
        with pl.graph("decoder_layer"):
            hidden = mlp_rows(x, w, hidden)
            out = scale_rows(hidden, out)
    return out
