//! `gen(n)`: the seed program's entry function (`examples/accumulate_band.pl`) repeated `n`
//! times with distinct function and region names, 13 lines per copy: the input of issue
//! 14's measurements (`gen(10000)` is 130 005 lines, about 5 MB). Shared by the benchmarks
//! (`#[path]`-included) and the `gen` example, which writes it to standard output for the
//! shell measurements of `scripts/vs-ruff.sh`.

/// The seed's module header (5 lines) and `n` copies of its entry function.
pub fn gen(n: usize) -> String {
    let mut out = String::with_capacity(64 + n * 520);
    out.push_str("import pypto.language as pl\n\nROWS = 128\nCOLS = 128\nLAYERS = 4\n");
    for i in 0..n {
        out.push_str(&format!(
            r#"

# Copy {i} of the seed's entry: one graph region around one device scope.
@pl.jit
def entry_{i}(w: pl.Tensor, acc: pl.InOut[pl.Tensor]):
    for i in pl.range(LAYERS):
        with pl.graph("accumulate_band_{i}"):
            base = i * ROWS
            with pl.at(level=pl.Level.CORE_GROUP):
                band = pl.load(w, [base, 0], [ROWS, COLS])
                cur = pl.load(acc, [0, 0], [ROWS, COLS])
                pl.store(pl.add(cur, band), [0, 0], acc)
    return acc
"#
        ));
    }
    out
}
