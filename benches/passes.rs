//! The passes on generated programs of growing size, to show that their cost grows
//! linearly: one `pl.graph` region among N scalar statements, and N regions in a row;
//! OutlineGraphScopes alone and the whole default pipeline.
//! Each iteration gets freshly lowered IR (the setup, not timed) and runs the passes.
//!
//! Run with `cargo bench --bench passes`; divan prints the time per iteration and the
//! statements per second.

use divan::counter::ItemsCount;
use divan::Bencher;
use plc::driver::Session;
use plc::ir::Program;
use plc::passes;
use std::fmt::Write;

fn main() {
    divan::main();
}

const HEADER: &str = "import pypto.language as pl\n\n\
@pl.jit.incore\n\
def kern(x: pl.Tensor[[64, 64], pl.FP32], y: pl.Out[pl.Tensor[[64, 64], pl.FP32]]):\n    \
t = pl.load(x, [0, 0], [64, 64])\n    pl.store(t, [0, 0], y)\n    return y\n\n\
@pl.jit\n\
def main(x: pl.Tensor[[64, 64], pl.FP32], y: pl.Out[pl.Tensor[[64, 64], pl.FP32]], n: pl.Scalar[pl.INDEX]):\n";

/// One region in the middle of `n` scalar statements, each reading the one before.
fn one_region(n: usize) -> String {
    let mut s = String::from(HEADER);
    s.push_str("    v0 = n + 1\n");
    for k in 1..n {
        if k == n / 2 {
            let _ = writeln!(s, "    with pl.graph(\"middle\"):\n        b = v{} * 2\n        y = kern(x, y)", k - 1);
        }
        let _ = writeln!(s, "    v{k} = v{} + {k}", k - 1);
    }
    s.push_str("    return y\n");
    s
}

/// `n` regions in a row, each calling the kernel.
fn many_regions(n: usize) -> String {
    let mut s = String::from(HEADER);
    for k in 0..n {
        let _ = writeln!(s, "    with pl.graph(\"layer\"):\n        y = kern(x, y)\n    v{k} = n + {k}");
    }
    s.push_str("    return y\n");
    s
}

fn lower(src: &str, before: &str) -> (Session, Vec<Program>) {
    let mut session = Session::new();
    let (mut programs, mut diags) = session.lower_source("bench.pl", src.as_bytes().to_vec());
    assert!(!plc::diag::has_errors(&diags));
    if !before.is_empty() {
        let p = passes::plan(&mut session.files, before).unwrap_or_else(|_| panic!("pipeline"));
        let n = p.passes.len();
        passes::run(&p, n, false, &mut programs, &mut session.interner, &mut diags);
        assert!(!plc::diag::has_errors(&diags));
    }
    (session, programs)
}

fn bench_passes(bencher: Bencher, src: String, statements: usize, before: &str, pipeline: &str) {
    bencher.counter(ItemsCount::new(statements)).with_inputs(|| lower(&src, before)).bench_local_values(
        |(mut session, mut programs)| {
            // The timed passes, in order; the setup has already run what they require.
            let file = session.files.add_bytes("<pipeline>", pipeline.as_bytes().to_vec()).0;
            let span = plc::diag::Span::new(0, 0);
            let list = pipeline.split(',').map(|name| (passes::by_name(name).expect("a pass"), span)).collect();
            let p = passes::Pipeline { file, passes: list };
            let n = p.passes.len();
            let mut diags = Vec::new();
            passes::run(&p, n, false, &mut programs, &mut session.interner, &mut diags);
            assert!(diags.is_empty());
            (session, programs)
        },
    );
}

const SIZES: [usize; 3] = [10_000, 30_000, 100_000];

/// OutlineGraphScopes alone (InlineFunctions and ConvertToSSA run in the setup).
#[divan::bench(args = SIZES, sample_count = 10)]
fn outline_graph_one_region(bencher: Bencher, n: usize) {
    bench_passes(bencher, one_region(n), n, "InlineFunctions,ConvertToSSA", "OutlineGraphScopes");
}

#[divan::bench(args = [1_000, 3_000, 10_000], sample_count = 10)]
fn outline_graph_many_regions(bencher: Bencher, n: usize) {
    bench_passes(bencher, many_regions(n), 2 * n, "InlineFunctions,ConvertToSSA", "OutlineGraphScopes");
}

/// The whole default pipeline from lowered IR (all seven passes).
#[divan::bench(args = SIZES, sample_count = 10)]
fn pipeline_one_region(bencher: Bencher, n: usize) {
    bench_passes(bencher, one_region(n), n, "", &passes::default_pipeline_text());
}

/// The whole default pipeline with `n` graph regions, each becoming a Graph function with
/// an InCore kernel call, directions and a legalized boundary.
#[divan::bench(args = [1_000, 3_000, 10_000], sample_count = 10)]
fn pipeline_many_regions(bencher: Bencher, n: usize) {
    bench_passes(bencher, many_regions(n), 2 * n, "", &passes::default_pipeline_text());
}
