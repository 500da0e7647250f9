//! A generator of large, valid pl programs, shared by the benchmarks and the robustness
//! tests (`#[path]`-included by both).

/// A pl module of about `lines` lines: constants, then `@pl.jit` functions with loops,
/// graph regions, device scopes, calls and scalar arithmetic, then an `@pl.program` class.
pub fn program(lines: usize) -> String {
    let mut out = String::with_capacity(lines * 40);
    out.push_str("import pypto.language as pl\n\nROWS = 128\nCOLS = 64\nLAYERS = 4\nN = pl.dynamic(\"N\")\n\n");
    let mut written = out.lines().count();
    let mut i = 0;
    while written + 8 < lines {
        let chunk = format!(
            r#"
@pl.jit
def layer_{i}(w: pl.Tensor, acc: pl.InOut[pl.Tensor], scale: pl.Scalar[pl.FP32]):
    """Accumulates band {i} of `w` into `acc`."""
    for step in pl.range(LAYERS):
        with pl.graph("band_{i}"):
            base = step * ROWS + {i} % 7
            with pl.at(level=pl.Level.CORE_GROUP, name_hint="tile_{i}"):
                band = pl.load(w, [base, 0], [ROWS, COLS])
                cur = pl.load(acc, [0, 0], [ROWS, COLS])
                pl.store(pl.add(cur, pl.mul(band, scale)), [0, 0], acc)
    if {i} > 2:
        acc[0:ROWS, :] = pl.add(acc, acc)
    return acc
"#
        );
        written += chunk.lines().count();
        out.push_str(&chunk);
        i += 1;
    }
    out.push_str(
        r#"
@pl.program
class Program:
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[64, 128], pl.FP32]) -> pl.Tensor[[64, 128], pl.FP32]:
        y: pl.Tensor[[64, 128], pl.FP32] = pl.add(x, x)
        return y
"#,
    );
    out
}
