//! The back half and the whole of `plc compile` on `gen(n)` (benches/support/seed.rs: the
//! seed's entry function repeated `n` times): emitting the C++ of the compiled program,
//! the whole compile in memory (read, lower, passes, emit), and the whole compile with the
//! files published into a directory (each iteration a fresh one, then again into the same
//! one, where no file changes). Sizes 1 000 and 4 000: the time per function should stay
//! the same (every stage linear).
//!
//! Run with `cargo bench --bench compile`; `RAYON_NUM_THREADS=1` for a serial run.

use divan::counter::ItemsCount;
use divan::Bencher;
use plc::driver::{self, Compilation, Input, PipelineSpec, StopAt};

#[path = "support/seed.rs"]
mod seed;

fn main() {
    divan::main();
}

const SIZES: [usize; 2] = [1_000, 4_000];

fn compiled(n: usize) -> Compilation {
    let c =
        driver::compile(Input::text("gen.pl", seed::gen(n)), &PipelineSpec::default(), StopAt::End).expect("in memory");
    assert!(!c.has_errors(), "{:?}", c.diags);
    c
}

fn emit(c: &Compilation) -> plc::emit::Files {
    let root = c.root.expect("a root file");
    plc::emit::compile(&c.programs, &c.session.interner, root, &plc::emit::Options::default())
        .unwrap_or_else(|_| panic!("gen(n) compiles"))
}

/// The C++ emitters alone, on the program after the whole pipeline.
#[divan::bench(args = SIZES, sample_count = 5)]
fn emit_cpp(bencher: Bencher, n: usize) {
    let c = compiled(n);
    bencher.counter(ItemsCount::new(n)).bench(|| divan::black_box(emit(&c)));
}

/// Read, lower, the default pipeline and the emitters: everything but the writes.
#[divan::bench(args = SIZES, sample_count = 5)]
fn compile_in_memory(bencher: Bencher, n: usize) {
    let src = seed::gen(n);
    bencher.counter(ItemsCount::new(n)).bench(|| {
        let c = driver::compile(Input::text("gen.pl", src.as_str()), &PipelineSpec::default(), StopAt::End)
            .expect("in memory");
        divan::black_box(emit(&c))
    });
}

/// The whole `plc compile`, files published into a directory that is new each time.
#[divan::bench(args = SIZES, sample_count = 5)]
fn compile_and_write(bencher: Bencher, n: usize) {
    let src = seed::gen(n);
    let tmp = tempfile::tempdir().expect("a temporary directory");
    let mut k = 0;
    bencher.counter(ItemsCount::new(n)).bench_local(|| {
        k += 1;
        let c = driver::compile(Input::text("gen.pl", src.as_str()), &PipelineSpec::default(), StopAt::End)
            .expect("in memory");
        plc::emit::write_files(&tmp.path().join(format!("out{k}")), &emit(&c)).expect("written")
    });
}

/// The same, into one directory that already holds the same output: nothing is rewritten.
#[divan::bench(args = SIZES, sample_count = 5)]
fn compile_unchanged(bencher: Bencher, n: usize) {
    let src = seed::gen(n);
    let tmp = tempfile::tempdir().expect("a temporary directory");
    let out = tmp.path().join("out");
    bencher.counter(ItemsCount::new(n)).bench_local(|| {
        let c = driver::compile(Input::text("gen.pl", src.as_str()), &PipelineSpec::default(), StopAt::End)
            .expect("in memory");
        plc::emit::write_files(&out, &emit(&c)).expect("written")
    });
}
