# `pl.mrgsort` with `block_len=` merges one source whose sorted runs are a positive multiple
# of 64 positions long (PyPTO's check); without it, 2-4 sorted sources merge into the
# scratch tile's shape (a tile result of tmp's shape, so `both` below is [1, 256]).
import pypto.language as pl


@pl.jit.incore
def k(s: pl.Tensor[[2, 64], pl.FP32], out: pl.Out[pl.Tensor[[1, 128], pl.FP32]]):
    ids = pl.tile.arange(0, [1, 64], dtype=pl.UINT32)
    a = pl.sort32(pl.load(s, [0, 0], [1, 64]), ids)
    b = pl.sort32(pl.load(s, [1, 0], [1, 64]), ids)
    bad = pl.mrgsort(a, block_len=32)
    worse = pl.tile.mrgsort_format1(a, 0)
    tmp = pl.create_tile([1, 256], dtype=pl.FP32)
    both: pl.Tile[[1, 128], pl.FP32] = pl.mrgsort(a, b, tmp=tmp)
    out = pl.store(a, [0, 0], out)
    return out
