//! Front-end throughput on a generated program of about 100 000 lines: lexing, lexing plus
//! layout, and the whole front end (lex, layout, host code, parse, checks).
//!
//! Run with `cargo bench --bench frontend`; divan prints the time per iteration and the
//! throughput in bytes per second.

use divan::counter::BytesCount;
use divan::Bencher;
use plc::intern::Interner;
use plc::source::FileId;
use plc::syntax;

#[path = "support/generate.rs"]
mod generate;

fn main() {
    divan::main();
}

const LINES: usize = 100_000;

fn source() -> String {
    generate::program(LINES)
}

#[divan::bench(sample_count = 10)]
fn lex(bencher: Bencher) {
    let src = source();
    bencher.counter(BytesCount::of_str(&src)).bench(|| {
        let mut diags = Vec::new();
        divan::black_box(syntax::lexer::lex(FileId(0), &src, &mut diags))
    });
}

#[divan::bench(sample_count = 10)]
fn lex_and_layout(bencher: Bencher) {
    let src = source();
    bencher.counter(BytesCount::of_str(&src)).bench(|| {
        let mut diags = Vec::new();
        divan::black_box(syntax::tokens(FileId(0), &src, &mut diags))
    });
}

#[divan::bench(sample_count = 10)]
fn parse(bencher: Bencher) {
    let src = source();
    bencher.counter(BytesCount::of_str(&src)).bench(|| {
        let mut diags = Vec::new();
        let mut interner = Interner::new();
        divan::black_box(syntax::parse(FileId(0), &src, &mut interner, &mut diags))
    });
}
