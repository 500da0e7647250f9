# Unicode identifiers and comments: ünïcödé — 注释 — コメント — 🚀 in a comment.
import pypto.language as pl

größe = 64
宽度 = 128
Δt = 0.5
π_approx = 3.14159


@pl.jit
def 加法(张量: pl.Tensor, résultat: pl.Out[pl.Tensor]):
    """Docstring mit Ümlauten und 中文。"""
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="ascii_only"):
        瓦片 = pl.load(张量, [0, 0], [größe, 宽度])  # 加载 tile
        pl.store(pl.mul(瓦片, Δt), [0, 0], résultat)
    pl.static_print("emoji 🚀 and ñ in a string")
    return résultat
