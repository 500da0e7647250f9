//! The passes on generated programs of growing size, to show that their cost grows
//! linearly: one `pl.graph` region among N scalar statements, and N regions in a row;
//! OutlineGraphScopes alone and the whole default pipeline.
//! Each iteration gets freshly lowered IR (the setup, not timed: the driver compiles up to
//! the first timed pass) and runs the rest of the pipeline ([`Compilation::finish`]).
//!
//! Run with `cargo bench --bench passes`; divan prints the time per iteration and the
//! statements per second.

use divan::counter::ItemsCount;
use divan::Bencher;
use plc::driver::{self, Compilation, Input, PipelineSpec, StopAt};
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

/// Lowers `src` and runs `spec`'s pipeline up to `untimed` (the setup).
fn lower(src: &str, spec: &PipelineSpec, untimed: &StopAt) -> Compilation {
    let c = driver::compile(Input::text("bench.pl", src), spec, untimed.clone()).expect("in memory");
    assert!(!c.has_errors(), "{:?}", c.diags);
    c
}

/// Times the passes of `spec` after `untimed`, on freshly lowered IR each iteration.
fn bench_passes(bencher: Bencher, src: String, statements: usize, spec: PipelineSpec, untimed: StopAt) {
    bencher.counter(ItemsCount::new(statements)).with_inputs(|| lower(&src, &spec, &untimed)).bench_local_values(
        |mut c| {
            let found = c.diags.len();
            c.finish();
            assert_eq!(c.diags.len(), found, "the passes report nothing");
            c
        },
    );
}

const SIZES: [usize; 3] = [10_000, 30_000, 100_000];

/// OutlineGraphScopes alone (InlineFunctions and ConvertToSSA run in the setup).
#[divan::bench(args = SIZES, sample_count = 10)]
fn outline_graph_one_region(bencher: Bencher, n: usize) {
    let spec = PipelineSpec::passes("InlineFunctions,ConvertToSSA,OutlineGraphScopes");
    bench_passes(bencher, one_region(n), n, spec, StopAt::After("ConvertToSSA".into()));
}

#[divan::bench(args = [1_000, 3_000, 10_000], sample_count = 10)]
fn outline_graph_many_regions(bencher: Bencher, n: usize) {
    let spec = PipelineSpec::passes("InlineFunctions,ConvertToSSA,OutlineGraphScopes");
    bench_passes(bencher, many_regions(n), 2 * n, spec, StopAt::After("ConvertToSSA".into()));
}

/// The whole default pipeline from lowered IR (all seven passes).
#[divan::bench(args = SIZES, sample_count = 10)]
fn pipeline_one_region(bencher: Bencher, n: usize) {
    bench_passes(bencher, one_region(n), n, PipelineSpec::default(), StopAt::Lower);
}

/// The whole default pipeline with `n` graph regions, each becoming a Graph function with
/// an InCore kernel call, directions and a legalized boundary.
#[divan::bench(args = [1_000, 3_000, 10_000], sample_count = 10)]
fn pipeline_many_regions(bencher: Bencher, n: usize) {
    bench_passes(bencher, many_regions(n), 2 * n, PipelineSpec::default(), StopAt::Lower);
}
