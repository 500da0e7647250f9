# Every string form: quotes, triple quotes, raw, escapes, prefixes in either case,
# implicit concatenation (also across lines inside brackets), and f-strings.
import pypto.language as pl

S1 = 'single'
S2 = "double"
S3 = 'it\'s'
S4 = "say \"hi\""
S5 = "tab\tnewline\nbackslash\\ unicode\u00e9 \N{BULLET} hex\x41 octal\101"
S6 = r"raw \n stays \d+"
S7 = R'raw\'quote'
S8 = """triple "double" with 'quotes'
spanning lines"""
S9 = '''triple single
with a \''' escaped end'''
S10 = "implicit " 'concatenation ' """of three"""
S11 = ("across "
       "lines "
       'in parens')
S12 = u"unicode prefix"
S13 = ""
S14 = ''''''
S15 = "line \
continued inside a string"
S16 = "a # is not a comment"


@pl.jit
def strings(x: pl.Tensor):
    """Docstring of the function.

    More lines.
    """
    pl.static_print(f"shape {x.shape}")
    pl.static_print(F'nested {x.shape[0]!r:>8} {{literal}}')
    pl.static_print(rf"raw {x} \d" fR'both {1}')
    pl.static_print(f"""triple {x}
    spanning""")
    with pl.graph('single_quoted_name'):
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="k" "ernel"):
            pl.store(pl.load(x, [0, 0], [16, 16]), [0, 0], x)
    return x
