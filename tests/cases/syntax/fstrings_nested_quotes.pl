# Python 3.12 f-strings: nested quotes of the same kind, line breaks and nested
# f-strings inside replacement fields, format specs with fields, doubled braces.
import pypto.language as pl


@pl.jit
def show(x: pl.Tensor):
    pl.static_print(f"{"inner"} {x!r:>{10}} {{literal}} {f'{x}'}")
    return x


if __name__ == "__main__":
    print(f"{
        1 + 2}")
    print(rf"\d{x}" f'''tri {x:{"w"}}
''')
