# E0219: `pl.pipeline` needs `stage=`; and `stage=` on `pl.range` is refused.
import pypto.language as pl


@pl.jit
def entry(x: pl.Tensor):
    for k in pl.pipeline(8):
        pass
    for j in pl.range(8, stage=2):
        pass
    return x
