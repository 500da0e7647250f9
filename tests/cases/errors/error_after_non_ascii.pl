# Errors after non-ASCII text on the same line: columns count UTF-8 bytes.
import pypto.language as pl


@pl.jit
def größe(张量: pl.Tensor, n: pl.INDEX):
    名字 = "résumé" + $
    δ = 张量 +* 2
    s = "日本語" ; t = 'ü
    return 张量
